// The lease extension's send pickup (docs/protocol.md, "A send picks its calls up"): the tool loop's
// send carries its run's token, so the reference server hands it the reply's calls PROCESSING. The
// loop then holds each call from that send: its first beat goes an interval after the send, not at
// once, and the call never reads PENDING from the reply to the report. The reference server listens
// on a real socket; time is fake (setTimeout and Date, the server's clock included), with a few real
// milliseconds between fake steps to carry the sockets' bytes. The client's `fetch` records when each
// beat is sent, on the fake clock.
import { type RunningServer, startServer } from '@parley/reference-server/node';
import { defineTool, Parley, type RunToolLoopOptions } from '@parley/sdk';
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { z } from 'zod';

const LEASE_MS = 3_000;
/** The beat interval for a 3 s lease (a third of it), with no jitter. */
const INTERVAL_MS = 1_000;
const AUTH = { authorization: 'Bearer parley-demo-token' };
const realSetTimeout = globalThis.setTimeout;
const realPause = () => new Promise<void>((resolve) => realSetTimeout(resolve, 2));

let running: RunningServer;

beforeEach(async () => {
  running = await startServer({ port: 0, heartbeatTimeoutMs: LEASE_MS });
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
});

afterEach(async () => {
  vi.useRealTimers();
  await running.close();
});

const work = defineTool({
  name: 'work',
  description: 'Works for 2.5 s',
  input: z.object({ n: z.number() }),
  run: () => new Promise<{ done: true }>((resolve) => setTimeout(() => resolve({ done: true }), 2_500)),
});

interface Sent {
  /** Fake milliseconds after the loop started when each beat was sent, per call. */
  beats: Map<string, number[]>;
  /** Each call's state on the server, sampled every 100 ms from the reply until the loop ended. */
  states: Map<string, string[]>;
}

/**
 * Runs a tool loop over the socket and samples its calls. `sendWithoutToken` drops the token from
 * the loop's sends (a server without the pickup: the reply shows the calls PENDING); `replyDelayMs`
 * holds the send's answer back that long (fake time) before the loop gets it.
 */
async function runLoop(
  content: string,
  loop: Partial<RunToolLoopOptions> & { sendWithoutToken?: boolean; replyDelayMs?: number },
): Promise<Sent> {
  const { sendWithoutToken, replyDelayMs, ...options } = loop;
  const read = (path: string, init?: RequestInit) =>
    running.server.fetch(
      new Request(`${running.url}${path}`, { ...init, headers: { ...AUTH, ...init?.headers } }),
    );
  const { sessionId } = (await (await read('/v1/sessions', { method: 'POST' })).json()) as {
    sessionId: string;
  };
  const started = Date.now();
  const beats = new Map<string, number[]>();
  // Fake time stands still until the send is answered: the reply takes no fake time of its own.
  let answered = false;
  const client = new Parley({
    baseUrl: running.url,
    token: 'parley-demo-token',
    maxRetries: 0,
    fetch: async (input, init) => {
      const request = new Request(input, init);
      const path = new URL(request.url).pathname;
      const beat = path.match(/\/heartbeat$/) && path.split('/').at(-2);
      if (beat) beats.set(beat, [...(beats.get(beat) ?? []), Date.now() - started]);
      const isSend = /^\/v1\/messages\/[^/]+$/.test(path);
      if (isSend && sendWithoutToken) request.headers.delete('parley-lease');
      const response = await fetch(request);
      if (isSend) answered = true;
      if (isSend && replyDelayMs) await new Promise((resolve) => setTimeout(resolve, replyDelayMs));
      return response;
    },
  });
  const calls: string[] = [];
  let settled = false;
  const loopRun = client
    .runToolLoop({
      sessionId,
      content,
      tools: [work],
      random: () => 0,
      onToolStart: (pending) => calls.push(pending.requestId),
      ...options,
    })
    .finally(() => {
      settled = true;
    });
  const states = new Map<string, string[]>();
  for (let rounds = 0; !settled && rounds < 5_000; rounds++) {
    for (let i = 0; i < 3; i++) await realPause();
    // From the reply on (the first onToolStart): every call of the reply is stored by then.
    if (calls.length > 0) {
      const reply = (await (await read(`/v1/messages/${sessionId}`)).json()) as {
        messages: { content: { type: string; id?: string }[] }[];
      };
      const uses = reply.messages.flatMap((m) => m.content.filter((b) => b.type === 'tool_use'));
      for (const { id } of uses) {
        const call = (await (await read(`/v1/tools/request/${sessionId}/${id}`)).json()) as { state: string };
        states.set(id as string, [...(states.get(id as string) ?? []), call.state]);
      }
    }
    if (answered) await vi.advanceTimersByTimeAsync(100);
  }
  const result = await loopRun;
  expect(result).toMatchObject({ status: 'done', finalText: 'Done.' });
  return { beats, states };
}

/** Each call's states while it ran: never PENDING, PROCESSING until its report, then COMPLETE. */
function expectHeldThroughout(states: Map<string, string[]>, calls: number): void {
  expect(states.size).toBe(calls);
  for (const seen of states.values()) {
    expect(seen.length).toBeGreaterThan(10);
    expect(seen[0]).toBe('PROCESSING');
    expect(seen.filter((s) => s !== 'PROCESSING' && s !== 'COMPLETE')).toEqual([]);
  }
}

describe('a send that carried the lease token picked its calls up (lease extension)', () => {
  test('a call run at once: its first beat goes one interval after the send, and it never reads PENDING from the reply to the report', async () => {
    const { beats, states } = await runLoop('/tool work {"n":1}\n/then Done.', {});
    expect([...beats.values()]).toEqual([[INTERVAL_MS, 2 * INTERVAL_MS]]);
    expectHeldThroughout(states, 1);
  });

  test('calls queued behind concurrency: the first beat of each goes one interval after the send, and none reads PENDING', async () => {
    const { beats, states } = await runLoop('/tool work {"n":1}\n/tool work {"n":2}\n/then Done.', {
      concurrency: 1,
    });
    // The first runs 0-2.5 s, the second 2.5-5 s: each is beaten from the send on.
    expect([...beats.values()].map((times) => times.slice(0, 2))).toEqual([
      [INTERVAL_MS, 2 * INTERVAL_MS],
      [INTERVAL_MS, 2 * INTERVAL_MS],
    ]);
    expectHeldThroughout(states, 2);
  });

  test('a reply that showed the call PENDING (a server without the pickup): the first beat goes at once', async () => {
    const { beats } = await runLoop('/tool work {"n":1}\n/then Done.', { sendWithoutToken: true });
    expect([...beats.values()]).toEqual([[0, INTERVAL_MS, 2 * INTERVAL_MS]]);
  });

  test('a reply that came later than an interval after the send: the first beat goes at once, and the call never reads PENDING', async () => {
    const { beats, states } = await runLoop('/tool work {"n":1}\n/then Done.', { replyDelayMs: 1_500 });
    expect([...beats.values()]).toEqual([[1_500, 2_500, 3_500]]);
    expectHeldThroughout(states, 1);
  });
});
