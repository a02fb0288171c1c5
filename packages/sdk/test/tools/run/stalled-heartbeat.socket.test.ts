// A lease never lapses while a healthy process holds the call, over a real socket that stalls: a
// node:http proxy in front of the reference server accepts one heartbeat's connection and answers
// it late (2.5 s) or never (the beats after the first take 200 ms to arrive), while the call is sampled on
// the server every 100 ms. Time is fake
// (setTimeout and Date, the server's clock included); the sockets are real, given a few real
// milliseconds between fake steps to carry their bytes.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createReferenceServer, type ReferenceServer } from '@parley/reference-server';
import { defineTool, Parley } from '@parley/sdk';
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { z } from 'zod';

const realSetTimeout = globalThis.setTimeout;
const realPause = () => new Promise<void>((resolve) => realSetTimeout(resolve, 2));
const AUTH = { authorization: 'Bearer parley-demo-token' };
const BEAT_LATENCY_MS = 200;

/** What the proxy does with the n-th heartbeat (1-based): answer it late, or never. */
type Stall = { beat: number; answerAfterMs: number | 'never' };

let proxy: Server;
let server: ReferenceServer;
let baseUrl: string;
const held: ServerResponse[] = [];

async function startProxy(leaseMs: number, stall: Stall): Promise<void> {
  server = createReferenceServer({ heartbeatTimeoutMs: leaseMs });
  let beats = 0;
  proxy = createServer((request: IncomingMessage, response: ServerResponse) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const isBeat = request.url?.endsWith('/heartbeat') === true && request.method === 'POST';
      const nth = isBeat ? ++beats : 0;
      const forward = async () => {
        const answer = await server.fetch(
          new Request(`http://parley.test${request.url}`, {
            method: request.method ?? 'GET',
            headers: request.headers as Record<string, string>,
            ...(chunks.length > 0 && { body: Buffer.concat(chunks) }),
          }),
        );
        const body = Buffer.from(await answer.arrayBuffer());
        if (response.destroyed) return;
        response.writeHead(answer.status, Object.fromEntries(answer.headers));
        response.end(body);
      };
      if (nth !== stall.beat) {
        // After the first, each beat takes 200 ms to reach the server: the network got slower.
        if (isBeat && nth > 1) setTimeout(() => void forward(), BEAT_LATENCY_MS);
        else void forward();
        return;
      }
      // The stalled beat: the connection is accepted and the request read, then nothing for a while.
      held.push(response);
      if (stall.answerAfterMs !== 'never') setTimeout(() => void forward(), stall.answerAfterMs);
    });
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
}

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'] });
});

afterEach(async () => {
  vi.useRealTimers();
  for (const response of held.splice(0)) response.destroy();
  proxy.closeAllConnections();
  await new Promise<void>((resolve) => proxy.close(() => resolve()));
});

/** Runs one call whose handler takes 6 s, over the proxy; samples the call's state on the server. */
async function runSampled(options: { heartbeatTimeoutMs?: number; leaseToken?: string }) {
  const get = (path: string, init?: RequestInit) =>
    server.fetch(
      new Request(`http://parley.test${path}`, { ...init, headers: { ...AUTH, ...init?.headers } }),
    );
  const { sessionId } = (await (await get('/v1/sessions', { method: 'POST' })).json()) as {
    sessionId: string;
  };
  const reply = (await (
    await get(`/v1/messages/${sessionId}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ content: '/tool work {"n":1}' }),
    })
  ).json()) as { pendingTools: { requestId: string; name: string; input: { n: number } }[] };
  const [pending] = reply.pendingTools;
  if (!pending) throw new Error('no pending call');
  const work = defineTool({
    name: 'work',
    description: 'Works for 6 s',
    input: z.object({ n: z.number() }),
    run: () => new Promise<{ done: true }>((resolve) => setTimeout(() => resolve({ done: true }), 6_000)),
  });
  const client = new Parley({ baseUrl, token: 'parley-demo-token', maxRetries: 0 });
  let settled = false;
  const run = client.tools.run(sessionId, pending, work, options).finally(() => {
    settled = true;
  });
  const states: { at: number; state: string }[] = [];
  const started = Date.now();
  while (!settled && Date.now() - started < 20_000) {
    await vi.advanceTimersByTimeAsync(100);
    for (let i = 0; i < 3; i++) await realPause();
    const call = (await (await get(`/v1/tools/request/${sessionId}/${pending.requestId}`)).json()) as {
      state: string;
      lastHeartbeatAt: number | null;
    };
    if (call.lastHeartbeatAt !== null) states.push({ at: Date.now() - started, state: call.state });
  }
  const result = await run;
  return { result, states };
}

describe('a heartbeat over a stalled connection never lets the lease lapse', () => {
  test('known 3 s lease, a beat never answered: the next beats go out on time and the call never reads PENDING', async () => {
    await startProxy(3_000, { beat: 2, answerAfterMs: 'never' });
    const { result, states } = await runSampled({ heartbeatTimeoutMs: 3_000 });
    expect(result.status).toBe('COMPLETE');
    expect(states.length).toBeGreaterThan(50);
    expect(states.filter((s) => s.state === 'PENDING')).toEqual([]);
  });

  test('known 3 s lease, a beat answered 2.5 s late: it delays no other beat and the call never reads PENDING', async () => {
    await startProxy(3_000, { beat: 2, answerAfterMs: 2_500 });
    const { result, states } = await runSampled({ heartbeatTimeoutMs: 3_000 });
    expect(result.status).toBe('COMPLETE');
    expect(states.filter((s) => s.state === 'PENDING')).toEqual([]);
  });

  test('unknown lease (the server holds 3 s), a beat never answered: no longer lease is assumed, and the call never reads PENDING', async () => {
    await startProxy(3_000, { beat: 2, answerAfterMs: 'never' });
    const { result, states } = await runSampled({});
    expect(result.status).toBe('COMPLETE');
    expect(states.filter((s) => s.state === 'PENDING')).toEqual([]);
  });

  test('unknown lease read from the server (lease extension, 1.5 s), a beat never answered: the call never reads PENDING', async () => {
    await startProxy(1_500, { beat: 2, answerAfterMs: 'never' });
    const { result, states } = await runSampled({ leaseToken: 'stalled-socket-test-token' });
    expect(result.status).toBe('COMPLETE');
    expect(states.filter((s) => s.state === 'PENDING')).toEqual([]);
  });
});
