import { type ControlTarget, controlCall, testIdHeaderValue, unreachable } from './control-client.js';

/** A script in the script file format: `{ turns }`, `{ rules }` or a list of turns (docs/stand-in-model.md). */
export type ScriptJson = { turns: unknown[] } | { rules: unknown[] } | unknown[];

/** A one-shot fault (`POST /_parley/faults`, docs/testing.md): `{ status: 503, match: { path: '/v1/sessions' } }`. */
export interface QueuedFaultJson {
  status?: number;
  code?: string;
  retryAfterSeconds?: number;
  latencyMs?: number;
  delayMs?: number;
  cutAfterEvents?: number;
  drop?: boolean;
  dropAfterEvents?: number;
  malformed?: boolean;
  match?: { method?: string; path?: string };
  times?: number;
  [key: string]: unknown;
}

/** One journal entry (`GET /_parley/journal`, docs/testing.md#the-journal). */
export interface JournalEntryJson {
  seq: number;
  method: string;
  path: string;
  sessionId?: string;
  user?: string;
  body?: unknown;
  response: { status: number; body?: unknown; text?: string; complete: boolean; [key: string]: unknown };
  [key: string]: unknown;
}

/** Filters of `GET /_parley/journal`. */
export interface JournalFilter {
  sessionId?: string;
  path?: string;
  method?: string;
  user?: string;
}

/**
 * What one test sets up and reads on a started container, in its own scope (`x-parley-test-id`):
 * tests running at once on one container never see each other's script, faults, sessions or journal.
 * Built on the documented control routes (docs/testing.md, "Control and inspection routes").
 */
export interface ParleyTestHandle {
  testId: string;
  /** The header that puts a request in this test's scope: give it to your client (the SDK's `headers`). */
  headers: { 'x-parley-test-id': string };
  /** `fetch` against the container with the first user's token and the test's header (`path` from `/`). */
  fetch(path: string, init?: RequestInit): Promise<Response>;
  /** Sets this test's scripted model (`PUT /_parley/script`). */
  script(script: ScriptJson): Promise<void>;
  faults: {
    /** Queues a one-shot fault for this test's requests (`POST /_parley/faults`). */
    next(fault: QueuedFaultJson): Promise<void>;
    /** The faults queued and not taken yet. */
    pending(): Promise<QueuedFaultJson[]>;
    clear(): Promise<void>;
  };
  /** This test's journal entries, filtered. */
  journal(filter?: JournalFilter): Promise<JournalEntryJson[]>;
  /** Snapshots of this test's sessions (`GET /_parley/sessions`). */
  sessions(): Promise<unknown[]>;
  /** Drops this test's sessions, journal, faults and script (`POST /_parley/reset`). */
  reset(): Promise<void>;
}

/** The handle of test `testId` on the container at `target`, whose requests use `token`. */
export function parleyTestHandle(target: ControlTarget, token: string, testId: string): ParleyTestHandle {
  const call = (method: string, path: string, body?: unknown) =>
    controlCall(target, method, path, { testId, ...(body === undefined ? {} : { body }) });
  const header = testIdHeaderValue(testId);
  return {
    testId,
    headers: { 'x-parley-test-id': header },
    fetch: async (path, init = {}) => {
      const headers = new Headers(init.headers);
      if (!headers.has('authorization')) headers.set('authorization', `Bearer ${token}`);
      headers.set('x-parley-test-id', header);
      const url = `${target.baseUrl}${path}`;
      const what = `${init.method ?? 'GET'} ${url}`;
      let response: Response;
      try {
        response = await fetch(url, { ...init, headers });
      } catch (error) {
        // The caller's own abort stays an abort.
        if (init.signal?.aborted) throw error;
        throw unreachable(target, what, error);
      }
      return withBodyErrors(response, (error) =>
        init.signal?.aborted ? error : unreachable(target, `reading the body of ${what}`, error),
      );
    },
    script: async (script) =>
      void (await call('PUT', '/script', Array.isArray(script) ? { turns: script } : script)),
    faults: {
      next: async (fault) => void (await call('POST', '/faults', fault)),
      pending: async () => ((await call('GET', '/faults')) as { pending: QueuedFaultJson[] }).pending,
      clear: async () => void (await call('DELETE', '/faults')),
    },
    journal: async (filter = {}) => {
      const query = new URLSearchParams();
      for (const [key, value] of Object.entries(filter)) {
        if (value !== undefined) query.set(key === 'sessionId' ? 'session' : key, String(value));
      }
      const search = query.size === 0 ? '' : `?${query}`;
      return ((await call('GET', `/journal${search}`)) as { entries: JournalEntryJson[] }).entries;
    },
    sessions: async () => ((await call('GET', '/sessions')) as { sessions: unknown[] }).sessions,
    reset: async () => void (await call('POST', '/reset')),
  };
}

/**
 * The response with its body's read errors (a container stopped mid-stream) turned into
 * {@link ParleyContainerError}s: a reader rejects at once, saying the container went away.
 */
function withBodyErrors(response: Response, wrap: (error: unknown) => unknown): Response {
  const body = response.body;
  if (body === null) return response;
  const reader = body.getReader();
  const wrapped = new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const { done, value } = await reader.read();
        if (done) controller.close();
        else controller.enqueue(value);
      } catch (error) {
        controller.error(wrap(error));
      }
    },
    cancel: (reason) => reader.cancel(reason),
  });
  return new Response(wrapped, {
    status: response.status,
    statusText: response.statusText,
    headers: response.headers,
  });
}
