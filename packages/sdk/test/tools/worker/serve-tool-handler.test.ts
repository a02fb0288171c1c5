// serveToolHandlerOn and the worker host joined in one thread: each message is structured-cloned
// and delivered in a microtask, as a port would, so the worker's side runs without a thread.
import { ToolWorkerDataError, ToolWorkerError, ToolWorkerTimeoutError } from '@parley/sdk';
import type { ToolWorkerExit } from '@parley/sdk/worker';
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { serveToolHandlerOn, type ToolWorkerHandler } from '../../../src/tools/worker/serve-tool-handler.js';
import type { ToolWorkerSpawner } from '../../../src/tools/worker/tool-worker-spawner.js';
import { WorkerHost } from '../../../src/tools/worker/worker-host.js';
import { toolContext } from './helpers.js';

const TIMEOUT_MS = 60_000;

/** Runs one call of `handler` through a host whose worker is a pair of in-process endpoints. */
function runInProcess(handler: ToolWorkerHandler) {
  const exits: ToolWorkerExit[] = [];
  const spawn: ToolWorkerSpawner = (_module, _options, events) => {
    const listeners: Array<(data: unknown) => void> = [];
    let open = true;
    serveToolHandlerOn(
      {
        post: (message) => {
          const copy = structuredClone(message);
          queueMicrotask(() => open && events.message(copy));
        },
        listen: (listener) => listeners.push(listener),
      },
      handler,
    );
    return {
      post: (message) => {
        const copy = structuredClone(message);
        queueMicrotask(() => {
          if (!open) return;
          for (const listen of listeners) listen(copy);
        });
      },
      terminate: async () => {
        open = false;
        events.exit(1);
      },
    };
  };
  const host = new WorkerHost(
    spawn,
    'in-process.js',
    { timeoutMs: TIMEOUT_MS, abortGraceMs: 100, onExit: (exit) => exits.push(exit) },
    { n: 1 },
    toolContext(),
  );
  return { result: host.result, exits };
}

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('serveToolHandler: an output whose getter throws fails the call at once', () => {
  test('a getter that throws is a ToolWorkerDataError naming where, with what it threw as cause, before any time limit', async () => {
    const { result, exits } = runInProcess(async () => ({
      rows: [
        {
          get total(): number {
            throw new RangeError('sum overflowed');
          },
        },
      ],
    }));
    const outcome = result.catch((error: unknown) => error);
    // Only a millisecond passes: the call must not wait for timeoutMs (or the deadline).
    await vi.advanceTimersByTimeAsync(1);
    const error = await Promise.race([outcome, 'still running']);
    expect(error).not.toBeInstanceOf(ToolWorkerTimeoutError);
    expect(error).toBeInstanceOf(ToolWorkerDataError);
    expect((error as ToolWorkerDataError).path).toBe('output.rows[0].total');
    expect((error as Error).message).toBe(
      'Tool "crunch" returned output its worker cannot send back: output.rows[0].total is a property that threw when read (RangeError: sum overflowed). ' +
        'A tool worker must return plain JSON data (objects, arrays, strings, numbers, booleans, null).',
    );
    // The getter's failure, as the handler's own errors arrive from a worker.
    const cause = (error as Error).cause;
    expect(cause).toBeInstanceOf(ToolWorkerError);
    expect((cause as ToolWorkerError).thrown).toMatchObject({
      name: 'RangeError',
      message: 'sum overflowed',
    });
    expect((cause as ToolWorkerError).thrown?.stack).toContain('serve-tool-handler.test.ts');
    expect(exits).toEqual([{ requestId: 'toolu_1', reason: 'done', terminated: false }]);
  });

  test('a proxy whose trap throws, and a thrown value whose own fields throw, still fail the call at once', async () => {
    const unreadable = new Proxy(new Error('hidden'), {
      get: () => {
        throw new Error('no fields either');
      },
    });
    const { result } = runInProcess(async () => ({
      list: new Proxy([], {
        get: () => {
          throw unreadable;
        },
      }),
    }));
    const outcome = result.catch((error: unknown) => error);
    await vi.advanceTimersByTimeAsync(1);
    const error = await Promise.race([outcome, 'still running']);
    expect(error).toBeInstanceOf(ToolWorkerDataError);
    expect((error as ToolWorkerDataError).path).toBe('output.list');
    expect((error as Error).message).toContain('output.list is an object that threw when read.');
    expect(((error as Error).cause as ToolWorkerError).thrown).toMatchObject({ name: 'Error', message: '' });
  });
});
