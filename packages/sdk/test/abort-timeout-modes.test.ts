import {
  createReferenceServer,
  ManualClock,
  type ReferenceServer,
  startServer,
} from '@parley/reference-server';
import { createHandlers } from '@parley/reference-server/msw';
import { type FetchLike, Parley, type ParleyOptions } from '@parley/sdk';
import { setupServer } from 'msw/node';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';

/**
 * The same abort and timeout cases, in the ways a client reaches the reference server: over real
 * HTTP (with a `fetch` option, and with the global fetch), through msw intercepting the global
 * fetch, and with the server's `fetch` injected.
 * Each case must reject with the same error and leave the same stored state in every mode. The
 * server's clock is manual and never moves here, so a held answer (a `latency` fault) is never
 * released: a call can only settle through its own signal or deadline.
 */
type Mode = 'http' | 'http, the global fetch' | 'msw' | 'injected';
const MODES: Mode[] = ['http', 'http, the global fetch', 'msw', 'injected'];
const TOKEN = 'parley-demo-token';
const MSW_BASE_URL = 'http://parley.modes.test';
const HOLD = { 'x-parley-fault': 'latency=3600000' };
/** The SDK's own deadline in the timeout cases: long enough for any mode to reach the server. */
const DEADLINE_MS = 300;

// msw patches globalThis.fetch while it listens: the http mode keeps the real one.
const realFetch: FetchLike = globalThis.fetch.bind(globalThis);

interface Harness {
  server: ReferenceServer;
  client(options?: Partial<ParleyOptions>): Parley;
  close(): Promise<void>;
}

async function start(mode: Mode): Promise<Harness> {
  const clock = new ManualClock(1_700_000_000_000);
  const base = { token: TOKEN, maxRetries: 0 };
  if (mode === 'http' || mode === 'http, the global fetch') {
    const running = await startServer({ port: 0, clock });
    // Without a `fetch` option the client takes the global one at each call (msw listens only in
    // its own mode's block), which the SDK trusts to follow the request's signal.
    const fetch = mode === 'http' ? { fetch: realFetch } : {};
    return {
      server: running.server,
      client: (options) => new Parley({ ...base, baseUrl: running.url, ...fetch, ...options }),
      close: () => running.close(),
    };
  }
  const server = createReferenceServer({ clock });
  if (mode === 'injected') {
    return {
      server,
      client: (options) => new Parley({ ...base, baseUrl: MSW_BASE_URL, fetch: server.fetch, ...options }),
      close: () => server.close(),
    };
  }
  const mock = setupServer(...createHandlers(server, { baseUrl: MSW_BASE_URL }));
  mock.listen({ onUnhandledRequest: 'error' });
  return {
    server,
    client: (options) =>
      new Parley({
        ...base,
        baseUrl: MSW_BASE_URL,
        fetch: (request) => globalThis.fetch(request),
        ...options,
      }),
    close: async () => {
      mock.close();
      await server.close();
    },
  };
}

/** Waits (polling, no fixed sleep) until the server has answered `path` and holds the answer. */
async function arrived(server: ReferenceServer, path: string): Promise<void> {
  await vi.waitFor(
    () => {
      const entry = server.journal
        .entries()
        .filter((e) => e.path === path)
        .at(-1);
      if (entry?.response === undefined) throw new Error(`no answer for ${path} yet`);
    },
    { timeout: 5_000, interval: 5 },
  );
}

/** What the session holds afterwards, once the server has settled: its messages and whether it takes a new turn. */
async function storedState(client: Parley, sessionId: string): Promise<string[]> {
  return vi.waitFor(
    async () => {
      const messages = await client.messages.export(sessionId, { includeDeleted: true });
      const next = await client.messages.send(sessionId, { content: '/say next' }).then(
        () => 'next turn accepted',
        (error: unknown) => `next turn refused: ${(error as { code?: string }).code}`,
      );
      if (next.includes('reply_in_progress')) throw new Error('the aborted reply is still running');
      return [
        ...messages.map((m) => {
          const text = m.content.map((block) => (block.type === 'text' ? block.text : block.type)).join('');
          return `${m.index} ${m.role}${m.deletedAt === null ? '' : ' (deleted)'}: ${text}`;
        }),
        next,
      ];
    },
    { timeout: 5_000, interval: 20 },
  );
}

/** A started call: `settled` is its outcome, `held` resolves once the server holds it. */
interface Started {
  settled: Promise<unknown>;
  held: Promise<void>;
}

interface Case {
  name: string;
  start(harness: Harness, client: Parley, sessionId: string, signal: AbortSignal): Started;
  /** What happens once the server holds the call: the caller aborts, or the SDK's deadline passes. */
  act: 'abort' | 'deadline';
  error: 'APIUserAbortError' | 'APITimeoutError';
  state: string[];
}

const HELD_REPLY = ['0 user: /say held', '1 assistant: held', 'next turn accepted'];
/** The model says "one", then waits on the server's (unmoving) clock: the reply is in progress. */
const SLOW = '/delay 600000\n/say one two';
/** A reply the client left while it was in progress: the user message kept, the answer retracted. */
const LEFT_REPLY = [
  '0 user: /delay 600000\n/say one two',
  '1 assistant (deleted): one ',
  'next turn accepted',
];

function buffered(
  harness: Harness,
  sessionId: string,
  call: Promise<unknown>,
  path = `/v1/messages/${sessionId}`,
): Started {
  return { settled: call, held: arrived(harness.server, path) };
}

/** A streamed reply is held once its headers are in (the reply has started on the server). */
function streamed(stream: ReturnType<Parley['messages']['stream']>): Started {
  return { settled: stream.finalReply(), held: stream.withResponse().then(() => undefined) };
}

const CASES: Case[] = [
  {
    name: 'a buffered send whose caller aborts while the server holds the answer',
    start: (harness, client, sessionId, signal) =>
      buffered(
        harness,
        sessionId,
        client.messages.send(sessionId, { content: '/say held' }, { signal, headers: HOLD }),
      ),
    act: 'abort',
    error: 'APIUserAbortError',
    state: HELD_REPLY,
  },
  {
    name: 'a buffered send whose timeoutMs passes while the server holds the answer',
    start: (harness, client, sessionId) =>
      buffered(
        harness,
        sessionId,
        client.messages.send(sessionId, { content: '/say held' }, { timeoutMs: DEADLINE_MS, headers: HOLD }),
      ),
    act: 'deadline',
    error: 'APITimeoutError',
    state: HELD_REPLY,
  },
  {
    name: 'a GET whose caller aborts while the server holds the answer',
    start: (harness, client, sessionId, signal) =>
      buffered(harness, sessionId, client.messages.export(sessionId, {}, { signal, headers: HOLD })),
    act: 'abort',
    error: 'APIUserAbortError',
    state: ['next turn accepted'],
  },
  {
    name: 'a stream whose caller aborts before the first event',
    start: (_, client, sessionId, signal) =>
      streamed(client.messages.stream(sessionId, { content: SLOW }, { signal, headers: HOLD })),
    act: 'abort',
    error: 'APIUserAbortError',
    state: LEFT_REPLY,
  },
  {
    name: 'a stream whose first event does not come within firstEventTimeoutMs',
    start: (_, client, sessionId) =>
      streamed(
        client.messages.stream(
          sessionId,
          { content: SLOW },
          { firstEventTimeoutMs: DEADLINE_MS, headers: HOLD },
        ),
      ),
    act: 'deadline',
    error: 'APITimeoutError',
    state: LEFT_REPLY,
  },
  {
    name: 'a stream whose caller aborts between two events',
    start: (_, client, sessionId, signal) => {
      const stream = client.messages.stream(sessionId, { content: SLOW }, { signal });
      const first = new Promise<void>((resolve) => stream.once('text', () => resolve()));
      return { settled: stream.finalReply(), held: first };
    },
    act: 'abort',
    error: 'APIUserAbortError',
    state: LEFT_REPLY,
  },
  {
    name: 'a stream idle between two events for longer than idleTimeoutMs',
    start: (_, client, sessionId) => {
      const stream = client.messages.stream(sessionId, { content: SLOW }, { idleTimeoutMs: DEADLINE_MS });
      const first = new Promise<void>((resolve) => stream.once('text', () => resolve()));
      return { settled: stream.finalReply(), held: first };
    },
    act: 'deadline',
    error: 'APITimeoutError',
    state: LEFT_REPLY,
  },
];

describe.each(MODES)('abort and timeout over %s', (mode) => {
  let harness: Harness;
  beforeAll(async () => {
    harness = await start(mode);
  });
  afterAll(async () => {
    await harness?.close();
  });

  it.each(CASES)('$name rejects with $error, without the server’s answer, same stored state', async (c) => {
    const client = harness.client();
    const { sessionId } = await client.sessions.create();
    const controller = new AbortController();
    let settled = false;
    const started = c.start(harness, client, sessionId, controller.signal);
    const call = started.settled.then(
      () => {
        settled = true;
        return undefined;
      },
      (error: unknown) => {
        settled = true;
        return error;
      },
    );
    await started.held;
    if (c.act === 'abort') {
      expect(settled).toBe(false);
      controller.abort();
    }
    const error = await call;
    expect(error).toMatchObject({ name: c.error });
    // The server's clock never moved: its held answer was never released.
    expect(harness.server.clock.now()).toBe(1_700_000_000_000);
    // A reply left in progress keeps its user message and never leaves a live answer. Whether the
    // words streamed so far are stored (retracted) depends on how far the model got before the
    // server saw the client go, which over a real socket is a race: compare the rest exactly.
    const retracted = (line: string) => / assistant \(deleted\): /.test(line);
    const state = await storedState(client, sessionId);
    expect(state.filter((line) => !retracted(line))).toEqual(c.state.filter((line) => !retracted(line)));
    expect(state.filter(retracted)).toEqual(
      c.state.filter(retracted).slice(0, state.filter(retracted).length),
    );
  });

  it('an already aborted signal sends nothing and rejects with APIUserAbortError', async () => {
    const client = harness.client();
    const before = harness.server.journal.size;
    await expect(client.sessions.list({ signal: AbortSignal.abort() })).rejects.toMatchObject({
      name: 'APIUserAbortError',
    });
    await expect(
      client.messages.stream('sess_x', { content: 'x' }, { signal: AbortSignal.abort() }).finalReply(),
    ).rejects.toMatchObject({ name: 'APIUserAbortError' });
    expect(harness.server.journal.size).toBe(before);
  });
});
