import { createCassetteRecorder, createReferenceServer, turn } from '@parley/reference-server';
import { type CliEnv, runCli } from '@parley/reference-server/node';
import { describe, expect, it } from 'vitest';
import {
  answer,
  closedPortUrl,
  gate,
  send,
  startProxy,
  startScriptedUpstream,
  startUpstream,
} from './helpers.js';

const UPSTREAM_TOKEN = 'real-upstream-token-0123456789';
const PASSWORD = 'url-password-9876';
const WEATHER_TOOL = {
  get_weather: { name: 'get_weather', description: 'Weather', requestArgs: { type: 'object' } },
};

async function cli(argv: string[], env: CliEnv = {}) {
  const out: string[] = [];
  const err: string[] = [];
  const io = { stdout: (t: string) => out.push(t), stderr: (t: string) => err.push(t) };
  const result = await runCli(['--port', '0', '--control', ...argv], io, { env });
  return { out, err, result };
}

describe('a password in the upstream URL is masked wherever the proxy names the upstream', () => {
  it('in the start line, the 502 body, the report and the stop line (--upstream http://user:pw@host)', async () => {
    const closed = new URL(await closedPortUrl());
    const url = `http://user:pw@${closed.host}`;
    const masked = `http://user:***@${closed.host}`;
    const { out, err, result } = await cli(['--upstream', url]);
    const running = result.running!;
    const token = running.server.controlToken ?? '';
    const response = await send(`${running.url}/v1/sessions`, 'POST', {});
    const body = await response.json();
    const report = await (
      await fetch(`${running.url}/_parley/proxy/report`, { headers: { 'x-parley-control-token': token } })
    ).json();
    await running.close();

    expect(out.join('')).toContain(`checking proxy to ${masked} (`);
    expect(body.error).toMatchObject({ code: 'upstream_unreachable', details: { upstream: masked } });
    expect(body.error.message).toContain(`The upstream ${masked} could not be reached`);
    expect(report.upstream).toBe(masked);
    expect(err.join('')).toContain(`[parley] proxy report: 1 requests to ${masked}`);
    for (const text of [out.join(''), err.join(''), JSON.stringify(body), JSON.stringify(report)]) {
      expect(text).not.toContain(':pw@');
    }
  });

  it('in a bad --upstream and in an error a fetch gave that names the URL', async () => {
    const bad = await cli(['--upstream', `http://user:${PASSWORD}@example.test/?q=1`]);
    expect(bad.result.exitCode).toBe(2);
    expect(bad.err.join('')).toContain('http://user:***@example.test/?q=1');
    expect(bad.err.join('')).not.toContain(PASSWORD);

    // The global fetch refuses a URL with credentials, and its message quotes the URL.
    const closed = new URL(await closedPortUrl());
    const proxy = createReferenceServer({
      upstream: { url: `http://user:${PASSWORD}@${closed.host}`, fetch: globalThis.fetch, log: () => {} },
    });
    expect(proxy.proxy?.upstream).toBe(`http://user:***@${closed.host}`);
    const response = await proxy.fetch(
      new Request('http://proxy.test/v1/sessions', {
        headers: { authorization: 'Bearer parley-demo-token' },
      }),
    );
    const text = await response.text();
    expect(response.status).toBe(502);
    expect(text).toContain('http://user:***@');
    expect(text).not.toContain(PASSWORD);
    await proxy.close();
  });
});

describe('a token the upstream reflects is redacted in what the client, the journal and the cassette get', () => {
  it('in a 401 message and a header, with the upstream token and with a token passed through', async () => {
    // A careless deployment: its 401 quotes the token it was sent, in the body and a header.
    const upstream = await startScriptedUpstream((request, res) => {
      const token = String(request.headers.authorization).replace('Bearer ', '');
      res.setHeader('www-authenticate', `Bearer error="invalid_token", token="${token}"`);
      answer(
        res,
        401,
        JSON.stringify({ error: { code: 'unauthorized', message: `Token ${token} is unknown` } }),
      );
    });
    for (const [options, sent] of [
      [{ token: UPSTREAM_TOKEN }, UPSTREAM_TOKEN],
      [{}, 'client-token-abcdefgh'],
    ] as const) {
      const proxy = await startProxy(upstream.url, options);
      const response = await send(`${proxy.url}/v1/sessions`, 'GET', undefined, {
        ...(sent === UPSTREAM_TOKEN ? {} : { authorization: `Bearer ${sent}` }),
      });
      const body = await response.json();
      expect(body.error.message).toBe('Token [REDACTED] is unknown');
      expect(response.headers.get('www-authenticate')).toBe(
        'Bearer error="invalid_token", token="[REDACTED]"',
      );
      const journal = await (await proxy.control('/_parley/journal')).text();
      expect(journal).toContain('Token [REDACTED] is unknown');
      expect(journal).not.toContain(sent);
      await proxy.running.close();
      expect(JSON.stringify(proxy.exchanges)).not.toContain(sent);
      expect(proxy.exchanges[0]?.responseHeaders['www-authenticate']).toContain('token="[REDACTED]"');
    }
    expect(upstream.requests.map((r) => r.headers.authorization)).toEqual([
      `Bearer ${UPSTREAM_TOKEN}`,
      'Bearer client-token-abcdefgh',
    ]);
  });

  it('in a reply text, a streamed reply split across chunks and tool input fragments: none reaches the cassette', async () => {
    const upstream = await startUpstream({ users: [{ name: 'app', token: UPSTREAM_TOKEN }] });
    upstream.server.script({
      rules: [
        { match: { lastUserText: 'echo' }, reply: turn.text(`Your token is ${UPSTREAM_TOKEN}.`) },
        {
          match: { lastUserText: 'tool' },
          // The stand-in model streams a tool input in fragments: the token is cut in two.
          reply: turn.toolUses([{ id: 'tooluse_1', name: 'get_weather', input: { city: UPSTREAM_TOKEN } }]),
        },
      ],
    });
    const recorder = createCassetteRecorder();
    const proxy = await startProxy(upstream.url, { token: UPSTREAM_TOKEN, observers: [recorder] });
    const created = await send(`${proxy.url}/v1/sessions`, 'POST', {
      customizations: { extensions: { tools: WEATHER_TOOL } },
    });
    const { sessionId } = await created.json();
    const buffered = await (
      await send(`${proxy.url}/v1/messages/${sessionId}`, 'POST', { content: 'echo' })
    ).text();
    const streamed = await (
      await send(`${proxy.url}/v1/messages/${sessionId}/stream`, 'POST', { content: 'tool' })
    ).text();
    expect(buffered).toContain('Your token is [REDACTED].');
    expect(streamed).toContain('"input":{"city":"[REDACTED]"}');
    const report = await (await proxy.control('/_parley/proxy/report')).json();
    expect(report.violations).toBe(0);
    const journal = await (await proxy.control('/_parley/journal')).text();
    await proxy.running.close();

    for (const text of [buffered, journal, JSON.stringify(recorder.cassette())]) {
      expect(text).not.toContain(UPSTREAM_TOKEN);
    }
    const turns = recorder.cassette().sessions[0]?.turns ?? [];
    expect(turns.map((t) => t.content)).toEqual([
      [{ type: 'text', text: 'Your token is [REDACTED].' }],
      [{ type: 'tool_use', id: 'tooluse_1', name: 'get_weather', input: { city: '[REDACTED]' } }],
    ]);
    // The fragments of the input that held the token became one, so a replay streams no piece of it.
    const inputs = (turns[1]?.events ?? []).flatMap(({ event }) => {
      const delta = (event.contentBlockDelta as { delta?: { toolUse?: { input: string } } } | undefined)
        ?.delta;
      return delta?.toolUse === undefined ? [] : [delta.toolUse.input];
    });
    expect(inputs).toEqual(['{"city":"[REDACTED]"}']);
  });

  it('in a streamed body whose chunks cut the token in two', async () => {
    const second = gate();
    const upstream = await startScriptedUpstream(async (request, res) => {
      const token = String(request.headers.authorization).replace('Bearer ', '');
      const cut = 10;
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write(
        `{"sessionId":"sess_1","events":[\n{"validationException":{"message":"Token ${token.slice(0, cut)}`,
      );
      await second.promise;
      res.end(`${token.slice(cut)} is unknown"}}\n]}`);
    });
    const proxy = await startProxy(upstream.url, { token: UPSTREAM_TOKEN });
    const response = await send(`${proxy.url}/v1/messages/sess_1/stream`, 'POST', { content: 'Hi' });
    second.open();
    const text = await response.text();
    expect(text).toBe(
      '{"sessionId":"sess_1","events":[\n{"validationException":{"message":"Token [REDACTED] is unknown"}}\n]}',
    );
    const entry = (await (await proxy.control('/_parley/journal')).json()).entries[0];
    expect(entry.response.error).toEqual({
      code: 'validationException',
      message: 'Token [REDACTED] is unknown',
    });
    await proxy.running.close();
    expect(proxy.exchanges[0]?.events?.[0]?.event).toEqual({
      validationException: { message: 'Token [REDACTED] is unknown' },
    });
  });
});
