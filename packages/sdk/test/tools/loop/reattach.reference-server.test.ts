// runToolLoop({ reattach: true }) in one process against the reference server: what a re-attaching
// run claims, skips and leaves alone, and its bad input. The server runs on a ManualClock: a lease
// goes stale only when the test moves the clock. (The crash tests, with real processes killed at
// each point of the loop, are in reattach-crash.process.test.ts.)
import { createReferenceServer, ManualClock } from '@parley/reference-server';
import { defineTool, Parley, type ToolContext } from '@parley/sdk';
import { describe, expect, test } from 'vitest';
import { z } from 'zod';

const LEASE_MS = 750;

function setup() {
  const clock = new ManualClock(1_000_000);
  const server = createReferenceServer({ clock, heartbeatTimeoutMs: LEASE_MS });
  const reads = new Map<string, number>();
  const client = new Parley({
    baseUrl: 'http://parley.test',
    token: 'parley-demo-token',
    maxRetries: 0,
    fetch: (input, init) => {
      const request = new Request(input, init);
      const path = new URL(request.url).pathname;
      if (request.method === 'GET') reads.set(path, (reads.get(path) ?? 0) + 1);
      return server.fetch(request);
    },
  });
  // Another worker, on its own client.
  const other = new Parley({
    baseUrl: 'http://parley.test',
    token: 'parley-demo-token',
    fetch: server.fetch,
  });
  return { clock, server, client, other, reads };
}

function bookingTool(
  runs: { requestId: string; attempt: number; to: string }[],
  onRun?: (ctx: ToolContext) => Promise<void>,
) {
  return defineTool({
    name: 'book',
    description: 'Books a trip',
    input: z.object({ to: z.string() }),
    run: async ({ to }, ctx) => {
      runs.push({ requestId: ctx.requestId, attempt: ctx.attempt, to });
      await onRun?.(ctx);
      return { booked: to };
    },
  });
}

const FOUR_CALLS = ['a', 'b', 'c', 'd'].map((to) => `/tool book {"to":"${to}"}`).join('\n');

function userTexts(messages: { role: string; content: { type: string }[] }[]) {
  return messages.filter((m) => m.role === 'user' && m.content.some((b) => b.type === 'text'));
}

describe('re-attaching to an open turn', () => {
  test('claims the calls whose lease is stale or that no one picked up, waits for the one a live worker beats, never reruns a settled one, then resumes once', async () => {
    const { clock, server, client, other, reads } = setup();
    const runs: { requestId: string; attempt: number; to: string }[] = [];
    const { sessionId } = await client.sessions.create();
    const reply = await client.messages.send(sessionId, { content: `${FOUR_CALLS}\n/then All booked.` });
    const [a, b, c, d] = reply.pendingTools.map((call) => call.requestId) as [string, string, string, string];
    // The dead worker had settled a and claimed b; its lease went stale. c was never picked up.
    await other.tools.respond(sessionId, a, { booked: 'a' });
    await other.tools.heartbeat(sessionId, b);
    await clock.advance(LEASE_MS);
    // A live worker holds d: it answers once the re-attached run has checked on it twice.
    await other.tools.heartbeat(sessionId, d);
    const dPath = `/v1/tools/request/${sessionId}/${d}`;
    let answered = false;
    const watch = setInterval(() => {
      if (!answered && (reads.get(dPath) ?? 0) >= 2) {
        answered = true;
        void other.tools.respond(sessionId, d, { booked: 'd (elsewhere)' });
      }
    }, 5);
    try {
      const result = await client.runToolLoop({
        sessionId,
        tools: [bookingTool(runs)],
        reattach: true,
        heartbeatTimeoutMs: LEASE_MS,
      });
      expect(result.status).toBe('done');
      expect(result.finalText).toBe('All booked.');
      expect(
        result.reattached?.claimed.map((call) => [call.requestId, call.state, call.lastHeartbeatAt !== null]),
      ).toEqual([
        [b, 'PENDING', true],
        [c, 'PENDING', false],
      ]);
      // d was another worker's, and that worker settled it: held elsewhere, never run here.
      expect(result.reattached?.heldElsewhere.map((call) => [call.requestId, call.state])).toEqual([
        [d, 'COMPLETE'],
      ]);
      expect(result.reattached?.completed.map((call) => [call.requestId, call.state])).toEqual([
        [a, 'COMPLETE'],
      ]);
      expect(result.reattached?.toolResults.map((r) => [r.requestId, r.status])).toEqual([
        [b, 'COMPLETE'],
        [c, 'COMPLETE'],
      ]);
      // b may have run in the dead worker (attempt 2); c never ran; a and d never run here.
      expect(runs).toEqual([
        { requestId: b, attempt: 2, to: 'b' },
        { requestId: c, attempt: 1, to: 'c' },
      ]);
      expect(result.steps).toHaveLength(1);
      expect(server.journal.entries({ method: 'POST', path: '/v1/messages/*' })).toHaveLength(2);
      expect(userTexts(await client.messages.export(sessionId))).toHaveLength(1);
    } finally {
      clearInterval(watch);
    }
  });

  test('a call whose live worker stops beating while the run waits is claimed, and is only in claimed (the deprecated skipped still lists it)', async () => {
    const { clock, client, other, reads } = setup();
    const runs: { requestId: string; attempt: number; to: string }[] = [];
    const { sessionId } = await client.sessions.create();
    const reply = await client.messages.send(sessionId, { content: '/tool book {"to":"x"}' });
    const [x] = reply.pendingTools.map((call) => call.requestId) as [string];
    await other.tools.heartbeat(sessionId, x);
    const path = `/v1/tools/request/${sessionId}/${x}`;
    let moved = false;
    const watch = setInterval(() => {
      if (!moved && (reads.get(path) ?? 0) >= 1) {
        moved = true;
        void clock.advance(LEASE_MS);
      }
    }, 5);
    try {
      const result = await client.runToolLoop({
        sessionId,
        tools: [bookingTool(runs)],
        reattach: true,
        heartbeatTimeoutMs: LEASE_MS,
      });
      expect(result.status).toBe('done');
      expect(result.reattached?.claimed.map((call) => call.requestId)).toEqual([x]);
      expect(result.reattached?.heldElsewhere).toEqual([]);
      expect(result.reattached?.skipped.map((call) => call.requestId)).toEqual([x]);
      expect(runs).toEqual([{ requestId: x, attempt: 2, to: 'x' }]);
    } finally {
      clearInterval(watch);
    }
  });

  test('a turn whose calls are all settled is resumed at once, and no call runs', async () => {
    const { client, other } = setup();
    const runs: { requestId: string; attempt: number; to: string }[] = [];
    const { sessionId } = await client.sessions.create();
    const reply = await client.messages.send(sessionId, { content: '/tool book {"to":"x"}\n/then Booked.' });
    await other.tools.respond(sessionId, reply.pendingTools[0]?.requestId ?? '', { booked: 'x' });
    const result = await client.runToolLoop({ sessionId, tools: [bookingTool(runs)], reattach: true });
    expect(result.finalText).toBe('Booked.');
    expect(result.reattached).toMatchObject({ claimed: [], heldElsewhere: [], toolResults: [] });
    expect(result.reattached?.completed).toHaveLength(1);
    expect(runs).toEqual([]);
  });

  test("a reply that failed after the user's message was stored is asked for again, without sending the message twice", async () => {
    const { server, client } = setup();
    const { sessionId } = await client.sessions.create();
    await expect(
      client.messages.send(sessionId, { content: '/say Back again.\n/fail-once overloaded' }),
    ).rejects.toThrow();
    const result = await client.runToolLoop({ sessionId, tools: [bookingTool([])], reattach: true });
    expect(result.status).toBe('done');
    expect(result.finalText).toBe('Back again.');
    expect(result.reattached).toEqual({
      claimed: [],
      heldElsewhere: [],
      completed: [],
      toolResults: [],
      skipped: [],
    });
    expect(userTexts(await client.messages.export(sessionId))).toHaveLength(1);
    expect(server.journal.entries({ method: 'POST', path: '/v1/messages/*' })).toHaveLength(2);
  });
});

describe('reattach: bad input, and its deprecated name resume', () => {
  test('reattach on a session with nothing open returns at once with status done, sending nothing', async () => {
    const { server, client } = setup();
    const { sessionId } = await client.sessions.create();
    const empty = await client.runToolLoop({ sessionId, tools: [bookingTool([])], reattach: true });
    expect(empty).toMatchObject({
      status: 'done',
      steps: [],
      messages: [],
      finalText: '',
      stopReason: undefined,
    });
    await client.messages.send(sessionId, { content: '/say Hello.' });
    const answered = await client.runToolLoop({ sessionId, tools: [bookingTool([])], reattach: true });
    expect(answered).toMatchObject({ status: 'done', steps: [], finalText: 'Hello.' });
    expect(answered.reattached).toBeUndefined();
    expect(server.journal.entries({ method: 'POST', path: '/v1/messages/*' })).toHaveLength(1);
  });

  test('reattach beside content rejects the run with a TypeError before anything is sent (also under its deprecated name resume); so does a reattach that is not a boolean', async () => {
    const { server, client } = setup();
    const { sessionId } = await client.sessions.create();
    const noContent = new TypeError(
      'runToolLoop: reattach takes no content (the turn is in the session already)',
    );
    await expect(
      client.runToolLoop({ sessionId, tools: [bookingTool([])], reattach: true, content: 'Hi' }),
    ).rejects.toThrow(noContent);
    await expect(
      client.runToolLoop({ sessionId, tools: [bookingTool([])], resume: true, content: 'Hi' }),
    ).rejects.toThrow(noContent);
    await expect(
      // @ts-expect-error: a plain-JavaScript mistake
      client.runToolLoop({ sessionId, tools: [bookingTool([])], reattach: 'yes' }),
    ).rejects.toThrow(new TypeError('runToolLoop(): reattach must be a boolean, got "yes" (a string)'));
    expect(server.journal.entries({ method: 'POST', path: '/v1/messages/*' })).toHaveLength(0);
  });
});

describe('resume: true, the deprecated name of reattach: true', () => {
  test('still re-attaches: it claims and runs the open call once, and resumes the turn', async () => {
    const { client } = setup();
    const runs: { requestId: string; attempt: number; to: string }[] = [];
    const { sessionId } = await client.sessions.create();
    const reply = await client.messages.send(sessionId, { content: '/tool book {"to":"y"}\n/then Done.' });
    const result = await client.runToolLoop({ sessionId, tools: [bookingTool(runs)], resume: true });
    expect(result).toMatchObject({ status: 'done', finalText: 'Done.' });
    expect(result.reattached?.claimed.map((call) => call.requestId)).toEqual([
      reply.pendingTools[0]?.requestId,
    ]);
    expect(runs).toHaveLength(1);
  });
});
