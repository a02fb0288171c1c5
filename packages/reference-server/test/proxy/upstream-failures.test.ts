import { ManualClock } from '@parley/reference-server';
import { describe, expect, it } from 'vitest';
import {
  closedPortUrl,
  gate,
  type ReceivedRequest,
  send,
  startProxy,
  startScriptedUpstream,
} from './helpers.js';

const STREAM_START = '{"sessionId":"sess_1","events":[\n';
const MESSAGE_START = '{"messageStart":{"role":"assistant","index":1}}';
const DELTA = (text: string) =>
  `{"contentBlockDelta":{"contentBlockIndex":0,"delta":{"text":${JSON.stringify(text)}}}}`;

/** An upstream that never answers: `next()` resolves with each request as it arrives. */
async function silentUpstream() {
  const waiting: Array<(request: ReceivedRequest) => void> = [];
  const arrived: ReceivedRequest[] = [];
  const upstream = await startScriptedUpstream((request) => {
    const resolve = waiting.shift();
    if (resolve === undefined) arrived.push(request);
    else resolve(request);
  });
  const next = () =>
    new Promise<ReceivedRequest>((resolve) => {
      const request = arrived.shift();
      if (request === undefined) waiting.push(resolve);
      else resolve(request);
    });
  return { upstream, next };
}

/** Lets every callback that can run now run (timers excepted), so an answer due now has been given. */
async function turns(): Promise<void> {
  for (let i = 0; i < 10; i++) await new Promise((resolve) => setImmediate(resolve));
}

/** The proxy has not answered its one request: the journal entry has no response, no timeout is counted. */
async function expectNoAnswerYet(proxy: Awaited<ReturnType<typeof startProxy>>): Promise<void> {
  await turns();
  const entries = proxy.running.server.journal.entries();
  expect(entries).toHaveLength(1);
  expect(entries[0]?.response).toBeUndefined();
  expect(proxy.running.server.proxy?.report()).toMatchObject({ timeouts: 0, unreachable: 0 });
}

describe('an unreachable or slow upstream: a typed error naming it, never a hang', () => {
  it('answers 502 upstream_unreachable, naming the upstream, when nothing listens there', async () => {
    const url = await closedPortUrl();
    const proxy = await startProxy(url);
    const response = await send(`${proxy.url}/v1/sessions`, 'POST', {});
    expect(response.status).toBe(502);
    expect(response.headers.get('content-type')).toMatch(/application\/json/);
    const body = await response.json();
    expect(body.error.code).toBe('upstream_unreachable');
    expect(body.error.message).toContain(url);
    expect(body.error.details).toEqual({ upstream: url });
    const report = await (await proxy.control('/_parley/proxy/report')).json();
    expect(report).toMatchObject({ requests: 1, unreachable: 1, timeouts: 0, violations: 0 });
    const journal = (await (await proxy.control('/_parley/journal')).json()).entries;
    expect(journal[0].response).toMatchObject({ status: 502, error: { code: 'upstream_unreachable' } });
    await proxy.running.close();
    expect(proxy.exchanges[0]).toMatchObject({ status: 502, responseBody: body });
  });

  it('answers 504 upstream_timeout once the timeout passes on the proxy clock, and ends the upstream request', async () => {
    const clock = new ManualClock(1_000_000);
    const { upstream, next } = await silentUpstream();
    const proxy = await startProxy(upstream.url, { timeoutMs: 5_000 }, { clock });
    const pending = send(`${proxy.url}/v1/sessions`, 'GET');
    const arrived = await next();
    await clock.advance(4_999);
    // Nothing answered a millisecond before the deadline: no 504, no timeout counted.
    await expectNoAnswerYet(proxy);
    expect(upstream.requests).toHaveLength(1);
    await clock.advance(1);
    const response = await pending;
    expect(response.status).toBe(504);
    const body = await response.json();
    expect(body.error).toEqual({
      code: 'upstream_timeout',
      message: `The upstream ${upstream.url} did not answer within 5000 ms`,
      details: { upstream: upstream.url, timeoutMs: 5_000 },
    });
    await arrived.closedEarly;
    const report = await (await proxy.control('/_parley/proxy/report')).json();
    expect(report).toMatchObject({ timeouts: 1, unreachable: 0 });
  });

  it('answers 504 upstream_timeout when a streamed reply has its head but no first bytes within the timeout', async () => {
    const clock = new ManualClock(1_000_000);
    const never = gate();
    const upstream = await startScriptedUpstream(async (_, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.flushHeaders();
      await never.promise;
    });
    const proxy = await startProxy(upstream.url, { timeoutMs: 5_000 }, { clock });
    const pending = send(`${proxy.url}/v1/messages/sess_1/stream`, 'POST', {});
    while (upstream.requests.length === 0) await new Promise((resolve) => setImmediate(resolve));
    await clock.advance(4_999);
    await expectNoAnswerYet(proxy);
    await clock.advance(1);
    const response = await pending;
    expect(response.status).toBe(504);
    expect((await response.json()).error.code).toBe('upstream_timeout');
    await upstream.requests[0]?.closedEarly;
    never.open();
    const report = await (await proxy.control('/_parley/proxy/report')).json();
    expect(report).toMatchObject({ timeouts: 1, unreachable: 0 });
  });

  it('ends the upstream request when the client leaves before the answer', async () => {
    const { upstream, next } = await silentUpstream();
    const proxy = await startProxy(upstream.url);
    const controller = new AbortController();
    const leaving = fetch(`${proxy.url}/v1/messages/sess_1`, {
      headers: { authorization: 'Bearer parley-demo-token' },
      signal: controller.signal,
    }).catch((error: unknown) => error);
    const abandoned = await next();
    controller.abort();
    expect(await leaving).toBeInstanceOf(Error);
    await abandoned.closedEarly;
  });

  it('passes a slow stream on as it comes: the first event reaches the client before the upstream finishes', async () => {
    const rest = gate();
    let upstreamDone = false;
    const upstream = await startScriptedUpstream(async (_, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write(`${STREAM_START}${MESSAGE_START}`);
      await rest.promise;
      res.end(`,\n${DELTA('late')}\n]}`);
      upstreamDone = true;
    });
    const proxy = await startProxy(upstream.url);
    const response = await send(`${proxy.url}/v1/messages/sess_1/stream`, 'POST', { content: 'Hi' });
    const reader = (response.body as ReadableStream<Uint8Array>).getReader();
    const decoder = new TextDecoder();
    let text = '';
    while (!text.includes('messageStart')) {
      const { value, done } = await reader.read();
      if (done) throw new Error('ended early');
      text += decoder.decode(value, { stream: true });
    }
    expect(upstreamDone).toBe(false);
    // The journal already counts the one event while the reply is open.
    const open = (await (await proxy.control('/_parley/journal')).json()).entries[0];
    expect(open.response).toMatchObject({ events: 1, complete: false });
    rest.open();
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      text += decoder.decode(value, { stream: true });
    }
    expect(upstreamDone).toBe(true);
    expect(text).toBe(`${STREAM_START}${MESSAGE_START},\n${DELTA('late')}\n]}`);
  });

  it('ends the upstream stream when the client leaves in the middle of it', async () => {
    const never = gate();
    const upstream = await startScriptedUpstream(async (_, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write(`${STREAM_START}${MESSAGE_START}`);
      await never.promise;
    });
    const proxy = await startProxy(upstream.url);
    const controller = new AbortController();
    const response = await fetch(`${proxy.url}/v1/messages/sess_1/stream`, {
      method: 'POST',
      headers: { authorization: 'Bearer parley-demo-token', 'content-type': 'application/json' },
      body: '{}',
      signal: controller.signal,
    });
    const reader = (response.body as ReadableStream<Uint8Array>).getReader();
    await reader.read();
    controller.abort();
    await upstream.requests[0]?.closedEarly;
    never.open();
  });

  it('cuts a streamed reply whose upstream goes silent for the timeout on the proxy clock, and ends the upstream request', async () => {
    const clock = new ManualClock(1_000_000);
    const never = gate();
    const upstream = await startScriptedUpstream(async (_, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write(`${STREAM_START}${MESSAGE_START}`);
      await never.promise;
    });
    const proxy = await startProxy(upstream.url, { timeoutMs: 5_000 }, { clock });
    const response = await send(`${proxy.url}/v1/messages/sess_1/stream`, 'POST', {});
    expect(response.status).toBe(200);
    const reader = (response.body as ReadableStream<Uint8Array>).getReader();
    const decoder = new TextDecoder();
    let text = '';
    while (!text.includes('messageStart')) text += decoder.decode((await reader.read()).value);
    const rest = (async () => {
      for (;;) {
        const { done } = await reader.read();
        if (done) return 'ended';
      }
    })().catch(() => 'failed');
    await clock.advance(4_999);
    await turns();
    expect(proxy.lines).toEqual([]);
    expect(proxy.running.server.proxy?.report().timeouts).toBe(0);
    expect(proxy.running.server.journal.entries()[0]?.response).toMatchObject({ complete: false });
    await clock.advance(1);
    expect(await rest).toBe('failed');
    await upstream.requests[0]?.closedEarly;
    never.open();
    const report = await (await proxy.control('/_parley/proxy/report')).json();
    expect(report).toMatchObject({ timeouts: 1 });
    expect(proxy.lines[0]).toBe(
      `[parley] proxy: the upstream ${upstream.url} sent nothing for 5000 ms in POST /v1/messages/sess_1/stream: the stream was cut`,
    );
    const entry = (await (await proxy.control('/_parley/journal')).json()).entries[0];
    expect(entry.response).toMatchObject({ events: 1, complete: false });
  });

  /** Raw bytes of an answer's head as an upstream sends them: a 200 whose body is chunked. */
  const STREAM_HEAD =
    'HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ntransfer-encoding: chunked\r\n\r\n';

  /** An upstream that writes `bytes` raw and breaks the connection once they are on their way. */
  const breakingUpstream = (bytes: string) =>
    startScriptedUpstream((_, res) => {
      const socket = res.socket;
      if (bytes === '') socket?.destroy();
      else socket?.write(bytes, () => socket.destroy());
    });

  /** The proxy's answer must be its 502 naming the upstream, recorded in the journal and the report. */
  const expectUnreachable = async (
    proxy: Awaited<ReturnType<typeof startProxy>>,
    upstreamUrl: string,
    response: Response,
  ) => {
    expect(response.status).toBe(502);
    expect(response.headers.get('content-type')).toMatch(/application\/json/);
    const body = await response.json();
    expect(body.error.code).toBe('upstream_unreachable');
    expect(body.error.message).toContain(`The upstream ${upstreamUrl} could not be reached`);
    expect(body.error.details).toEqual({ upstream: upstreamUrl });
    const report = await (await proxy.control('/_parley/proxy/report')).json();
    expect(report).toMatchObject({ requests: 1, unreachable: 1, timeouts: 0 });
    const journal = (await (await proxy.control('/_parley/journal')).json()).entries;
    expect(journal).toHaveLength(1);
    expect(journal[0].response).toMatchObject({ status: 502, error: { code: 'upstream_unreachable' } });
    await proxy.running.close();
    expect(proxy.exchanges).toHaveLength(1);
    expect(proxy.exchanges[0]).toMatchObject({ status: 502, responseBody: body });
  };

  for (const [when, bytes] of [
    ['before any byte of its answer', ''],
    ['in the middle of its status line and headers', 'HTTP/1.1 200 OK\r\ncontent-ty'],
    ['after the headers of a streamed reply, before its first byte', STREAM_HEAD],
  ] as const) {
    it(`answers 502 upstream_unreachable when the upstream connection breaks ${when} (a stream request)`, async () => {
      const upstream = await breakingUpstream(bytes);
      const proxy = await startProxy(upstream.url);
      const response = await send(`${proxy.url}/v1/messages/sess_1/stream`, 'POST', { content: 'Hi' });
      await expectUnreachable(proxy, upstream.url, response);
    });
  }

  for (const [when, bytes] of [
    ['before any byte of its answer', ''],
    [
      'in the middle of a buffered body',
      'HTTP/1.1 201 Created\r\ncontent-type: application/json\r\ncontent-length: 40\r\n\r\n{"sessionId":',
    ],
  ] as const) {
    it(`answers 502 upstream_unreachable when the upstream connection breaks ${when} (a buffered request)`, async () => {
      const upstream = await breakingUpstream(bytes);
      const proxy = await startProxy(upstream.url);
      const response = await send(`${proxy.url}/v1/sessions`, 'POST', {});
      await expectUnreachable(proxy, upstream.url, response);
    });
  }

  it('answers an upstream that breaks right after the first bytes of a streamed reply: never a connection without an answer', async () => {
    const sent = `${STREAM_START}${MESSAGE_START}`;
    const chunk = `${Buffer.byteLength(sent).toString(16)}\r\n${sent}\r\n`;
    // Head and first bytes in one write, the break as soon as they are on their way: the proxy
    // may see the break before it has written its own head.
    const upstream = await breakingUpstream(STREAM_HEAD + chunk);
    const proxy = await startProxy(upstream.url);
    const response = await send(`${proxy.url}/v1/messages/sess_1/stream`, 'POST', { content: 'Hi' });
    if (response.status === 502) {
      await expectUnreachable(proxy, upstream.url, response);
      return;
    }
    expect(response.status).toBe(200);
    const reader = (response.body as ReadableStream<Uint8Array>).getReader();
    const decoder = new TextDecoder();
    let text = '';
    const outcome = await (async () => {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) return 'ended';
        text += decoder.decode(value, { stream: true });
      }
    })().catch(() => 'failed');
    expect(outcome).toBe('failed');
    expect(text).toBe(sent);
  });

  it('an upstream connection that breaks in the middle of a stream breaks the client connection after the same bytes', async () => {
    const sent = `${STREAM_START}${MESSAGE_START},\n${DELTA('half')}`;
    // The upstream breaks once the client has every byte it sent (a gate, not a timer).
    let breakUpstream = () => {};
    const broken = new Promise<void>((resolve) => {
      breakUpstream = resolve;
    });
    const upstream = await startScriptedUpstream((_, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write(sent, () => void broken.then(() => res.socket?.destroy()));
    });
    const proxy = await startProxy(upstream.url);
    const response = await send(`${proxy.url}/v1/messages/sess_1/stream`, 'POST', {});
    const reader = (response.body as ReadableStream<Uint8Array>).getReader();
    const decoder = new TextDecoder();
    let text = '';
    const outcome = await (async () => {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) return 'ended';
        text += decoder.decode(value, { stream: true });
        if (text === sent) breakUpstream();
      }
    })().catch(() => 'failed');
    expect(outcome).toBe('failed');
    expect(text).toBe(sent);
    const entry = (await (await proxy.control('/_parley/journal')).json()).entries[0];
    expect(entry.response).toMatchObject({ events: 2, complete: false });
    expect(entry.violations).toEqual([
      {
        in: 'response',
        path: '',
        expected: 'the body to end with the events array closed (]})',
        got: 'the body ended open after 2 events',
      },
    ]);
  });

  it('holds a slow client back: the upstream waits to write while the client does not read (no whole-body buffering)', async () => {
    const total = 64 * 1024 * 1024;
    const chunk = `,\n${DELTA('x'.repeat(16 * 1024))}`;
    let written = 0;
    let waiting = false;
    const upstream = await startScriptedUpstream((_, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write(`${STREAM_START}${MESSAGE_START}`);
      const pump = () => {
        while (written < total) {
          written += chunk.length;
          if (!res.write(chunk)) {
            waiting = true;
            res.once('drain', () => {
              waiting = false;
              pump();
            });
            return;
          }
        }
        res.end('\n]}');
      };
      pump();
    });
    const proxy = await startProxy(upstream.url);
    const response = await send(`${proxy.url}/v1/messages/sess_1/stream`, 'POST', {});
    const reader = (response.body as ReadableStream<Uint8Array>).getReader();
    await reader.read();
    // The client reads nothing more. Whatever the proxy does, the upstream comes to rest: done
    // (the proxy took the whole body) or waiting on a full connection (the proxy waits for the client).
    let last = -1;
    let still = 0;
    while (still < 200) {
      await new Promise((resolve) => setImmediate(resolve));
      still = written === last && (waiting || written >= total) ? still + 1 : 0;
      last = written;
    }
    expect(waiting).toBe(true);
    expect(written).toBeLessThan(total / 2);
    await reader.cancel();
  });
});
