import { createReferenceServer, type ReferenceServer } from '@parley/reference-server';
import { Parley, type RecoveryAttempt } from '@parley/sdk';
import { afterEach, beforeAll, beforeEach, vi } from 'vitest';

/** A reference server in this process (no socket) and a client that talks to it. */
export function setup(options: Parameters<typeof createReferenceServer>[0] = {}): {
  server: ReferenceServer;
  client: Parley;
} {
  const server = createReferenceServer(options);
  const client = new Parley({
    baseUrl: 'http://parley.test',
    token: 'parley-demo-token',
    fetch: (input, init) => server.fetch(new Request(input, init)),
    logLevel: 'off',
  });
  return { server, client };
}

/**
 * Settles `promise` while moving fake time on in steps of `stepMs` (the recovery's backoff waits
 * on `setTimeout`), letting the event loop turn between steps (the recovery module loads on first
 * use): no real waiting.
 */
export async function settle<T>(promise: PromiseLike<T>, stepMs = 100, maxSteps = 2000): Promise<T> {
  let done = false;
  promise.then(
    () => {
      done = true;
    },
    () => {
      done = true;
    },
  );
  for (let step = 0; step < maxSteps && !done; step++) {
    await vi.advanceTimersByTimeAsync(stepMs);
    await new Promise((resolve) => setImmediate(resolve));
  }
  return promise;
}

/**
 * The bodies POSTed to a session's send endpoints, as the journal has them (a request answered by
 * an injected status fault was not read: `'fault'`).
 */
export function sends(server: ReferenceServer): unknown[] {
  return server.journal
    .entries({ method: 'POST' })
    .filter((entry) => /^\/v1\/messages\/[^/]+(\/stream)?$/.test(entry.path))
    .map((entry) => entry.body ?? 'fault');
}

/**
 * Loads the modules the SDK imports on first use (the recovery, the tool loop's body, `runTool`).
 * Call it before fake timers start: a module's first dynamic import stalls in vitest's module
 * runner while setTimeout is faked.
 */
export function loadLazyModules(): Promise<unknown> {
  return Promise.all([
    import('../../src/recovery/recovering-send.js'),
    import('../../src/recovery/stream-recovery.js'),
    import('../../src/tools/loop/tool-loop-steps.js'),
    import('../../src/tools/loop/tool-loop-trace.js'),
    import('../../src/tools/run/run-tool.js'),
  ]);
}

/** The attempts as plain data, the error reduced to its class and code. */
export function summary(attempts: readonly RecoveryAttempt[]): Array<Record<string, unknown>> {
  return attempts.map(({ attempt, maxAttempts, action, delayMs, error }) => ({
    attempt,
    maxAttempts,
    action,
    delayMs,
    error: `${error.name}${'code' in error && error.code ? ` ${String(error.code)}` : ''}`,
  }));
}

/** Lets the event loop turn `count` times without moving fake time (in-process requests complete). */
export async function turns(count: number): Promise<void> {
  for (let i = 0; i < count; i++) await new Promise((resolve) => setImmediate(resolve));
}

/**
 * Fake `setTimeout` for each test of the file (the recovery's waits), the modules the SDK
 * imports on first use loaded before (see {@link loadLazyModules}), real timers back after each test.
 */
export function useFakeTimeouts(): void {
  beforeAll(loadLazyModules);
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
  });
  afterEach(() => {
    vi.useRealTimers();
  });
}
