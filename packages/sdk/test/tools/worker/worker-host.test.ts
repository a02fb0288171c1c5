// The worker host's state machine driven by a fake runtime adapter: every path of one call, with
// the exit it reports, without starting a thread (the real workers are in worker-handler.test.ts).
import { ToolWorkerError, ToolWorkerTimeoutError } from '@parley/sdk';
import type { ToolWorkerExit } from '@parley/sdk/worker';
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import type { HostMessage } from '../../../src/tools/worker/tool-worker-messages.js';
import type { ToolWorkerEvents, ToolWorkerSpawner } from '../../../src/tools/worker/tool-worker-spawner.js';
import { WorkerHost } from '../../../src/tools/worker/worker-host.js';
import { toolContext } from './helpers.js';

const PROTOCOL = 'parley.tool-worker.1';
const GRACE_MS = 100;

/** A fake adapter: records what the host posts and whether it terminated the worker. */
function fakeWorker() {
  const posted: HostMessage[] = [];
  let events: ToolWorkerEvents | undefined;
  let terminations = 0;
  const spawn: ToolWorkerSpawner = (_module, _options, handlers) => {
    events = handlers;
    return {
      post: (message) => posted.push(message),
      terminate: async () => {
        terminations++;
        events?.exit(1);
      },
    };
  };
  const send = (message: unknown) => events?.message(message);
  return {
    spawn,
    posted,
    terminations: () => terminations,
    ready: () => send({ protocol: PROTOCOL, kind: 'ready' }),
    result: (output: unknown) => send({ protocol: PROTOCOL, kind: 'result', output }),
    send,
    exitOnItsOwn: (code: number) => events?.exit(code),
  };
}

function start(options: { timeoutMs?: number; signal?: AbortSignal } = {}) {
  const worker = fakeWorker();
  const exits: ToolWorkerExit[] = [];
  const host = new WorkerHost(
    worker.spawn,
    'fake.js',
    { timeoutMs: options.timeoutMs, abortGraceMs: GRACE_MS, onExit: (exit) => exits.push(exit) },
    { n: 1 },
    toolContext(options.signal ? { signal: options.signal } : {}),
  );
  host.result.catch(() => {});
  return { worker, exits, host };
}

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('the worker host, one state at a time', () => {
  test('posts the call once the worker is ready, resolves with its output, then terminates it: done', async () => {
    const { worker, exits, host } = start();
    expect(worker.posted).toEqual([]);
    worker.ready();
    expect(worker.posted.map((m) => m.kind)).toEqual(['run']);
    worker.result({ answer: 42 });
    await expect(host.result).resolves.toEqual({ answer: 42 });
    expect(exits).toEqual([{ requestId: 'toolu_1', reason: 'done', terminated: false }]);
  });

  test('an abort before the worker is ready: the call fails at once, a late ready is ignored, the worker is terminated after the grace period', async () => {
    const controller = new AbortController();
    const { worker, exits, host } = start({ signal: controller.signal });
    controller.abort(new Error('lost'));
    await expect(host.result).rejects.toThrow('lost');
    worker.ready();
    expect(worker.posted.map((m) => m.kind)).toEqual(['abort']);
    await vi.advanceTimersByTimeAsync(GRACE_MS);
    expect(worker.terminations()).toBe(1);
    expect(exits).toEqual([{ requestId: 'toolu_1', reason: 'aborted', terminated: true }]);
  });

  test('a handler that stops by itself within the grace period is not counted as terminated', async () => {
    const controller = new AbortController();
    const { worker, exits, host } = start({ signal: controller.signal });
    worker.ready();
    controller.abort(new Error('run aborted'));
    await expect(host.result).rejects.toThrow('run aborted');
    worker.result({ late: true });
    expect(exits).toEqual([{ requestId: 'toolu_1', reason: 'aborted', terminated: false }]);
    await vi.advanceTimersByTimeAsync(GRACE_MS);
    expect(worker.terminations()).toBe(1);
  });

  test('timeoutMs counts from the start of the worker: its start-up time is part of the limit', async () => {
    const { worker, exits, host } = start({ timeoutMs: 500 });
    await vi.advanceTimersByTimeAsync(300); // the worker loads
    worker.ready();
    await vi.advanceTimersByTimeAsync(199);
    expect(exits).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    const error = await host.result.catch((e: unknown) => e);
    expect(error instanceof ToolWorkerTimeoutError && error.message).toBe(
      'Tool "crunch" ran past its 500 ms time limit and was stopped',
    );
    await vi.advanceTimersByTimeAsync(GRACE_MS);
    expect(exits).toEqual([{ requestId: 'toolu_1', reason: 'timed_out', terminated: true }]);
  });

  test('a worker that never says it is ready (its module never calls serveToolHandler) fails at timeoutMs, not at the deadline', async () => {
    const { worker, exits, host } = start({ timeoutMs: 800 });
    await vi.advanceTimersByTimeAsync(799);
    expect(exits).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    const error = await host.result.catch((e: unknown) => e);
    expect(error instanceof ToolWorkerTimeoutError && error.timeoutMs).toBe(800);
    // The call was never posted: only the abort went out, and a late ready changes nothing.
    worker.ready();
    expect(worker.posted.map((m) => m.kind)).toEqual(['abort']);
    await vi.advanceTimersByTimeAsync(GRACE_MS);
    expect(worker.terminations()).toBe(1);
    expect(exits).toEqual([{ requestId: 'toolu_1', reason: 'timed_out', terminated: true }]);
  });

  test('a message that breaks the protocol fails the call and terminates the worker at once: failed', async () => {
    const { worker, exits, host } = start();
    worker.ready();
    worker.send({ protocol: PROTOCOL, kind: 'ready' });
    const error = await host.result.catch((e: unknown) => e);
    expect(error instanceof ToolWorkerError && error.message).toBe(
      'Tool "crunch": its worker sent a malformed message (a second "ready" message); the worker was stopped',
    );
    expect(exits).toEqual([{ requestId: 'toolu_1', reason: 'failed', terminated: true }]);
    worker.result({ ignored: true });
    expect(worker.terminations()).toBe(1);
  });

  test('an output error whose cause is not an error object breaks the protocol: failed', async () => {
    const { worker, exits, host } = start();
    worker.ready();
    worker.send({
      protocol: PROTOCOL,
      kind: 'error',
      error: { name: 'ToolWorkerDataError', message: 'bad output', dataPath: 'output.total', cause: 'boom' },
    });
    const error = await host.result.catch((e: unknown) => e);
    expect(error instanceof ToolWorkerError && error.message).toBe(
      'Tool "crunch": its worker sent a malformed message (an "error" message: "error.cause" is "boom", not an object); the worker was stopped',
    );
    expect(exits).toEqual([{ requestId: 'toolu_1', reason: 'failed', terminated: true }]);
  });

  test('a worker that exits on its own before a result fails the call: failed, not terminated', async () => {
    const { worker, exits, host } = start();
    worker.ready();
    worker.exitOnItsOwn(3);
    await expect(host.result).rejects.toThrow(
      'Tool "crunch": its worker exited with code 3 before returning a result (does the module call serveToolHandler?)',
    );
    expect(exits).toEqual([{ requestId: 'toolu_1', reason: 'failed', terminated: false }]);
    expect(worker.terminations()).toBe(0);
  });

  test('messages of other code in the worker are ignored', async () => {
    const { worker, exits, host } = start();
    worker.send({ hello: 'from a library' });
    worker.ready();
    worker.send('text');
    worker.result({ ok: true });
    await expect(host.result).resolves.toEqual({ ok: true });
    expect(exits.map((e) => e.reason)).toEqual(['done']);
  });
});
