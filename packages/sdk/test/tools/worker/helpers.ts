import type { ToolContext } from '@parley/sdk';
import type { ToolWorkerExit, WorkerHandlerOptions } from '@parley/sdk/worker';

/** A fixture worker module next to these tests. */
export function fixture(name: string): URL {
  return new URL(`./fixtures/${name}`, import.meta.url);
}

/**
 * The worker's flags: load the SDK from `src` (as vitest does) through tsx. A built package needs
 * none of this.
 */
export const SOURCE_EXEC_ARGV: readonly string[] = [
  '--conditions=@parley/source',
  '--import',
  fixture('register-tsx.mjs').href,
];

/** Shared memory for the cpu-bound fixture: [0] release flag, [1] started flag. */
export function sharedFlags(): Int32Array {
  return new Int32Array(new SharedArrayBuffer(8));
}

export const release = (flags: Int32Array): void => {
  Atomics.store(flags, 0, 1);
};
/** Resolves once the fixture's handler has started burning CPU (it notifies; no polling). */
export async function started(flags: Int32Array): Promise<void> {
  // `Atomics.waitAsync` is in Node 16+ and ES2024, newer than this project's `lib`.
  const { waitAsync } = Atomics as unknown as {
    waitAsync(array: Int32Array, index: number, value: number): { async: boolean; value: unknown };
  };
  const wait = waitAsync(flags, 1, 0);
  if (wait.async) await wait.value;
}

/** Collects the exits reported through `onExit`, and lets a test await the next one. */
export class ExitLog {
  readonly exits: ToolWorkerExit[] = [];
  #waiters: Array<(exit: ToolWorkerExit) => void> = [];

  readonly onExit: NonNullable<WorkerHandlerOptions['onExit']> = (exit) => {
    this.exits.push(exit);
    for (const wake of this.#waiters.splice(0)) wake(exit);
  };

  /** Resolves with exit number `n` (1-based), at once if it already happened. */
  nth(n: number): Promise<ToolWorkerExit> {
    return new Promise((resolve) => {
      const check = (): void => {
        const exit = this.exits[n - 1];
        if (exit) resolve(exit);
        else this.#waiters.push(check);
      };
      check();
    });
  }
}

/** The context runTool would give a handler. */
export function toolContext(overrides: Partial<ToolContext> = {}): ToolContext {
  return {
    signal: new AbortController().signal,
    sessionId: 'sess_1',
    requestId: 'toolu_1',
    name: 'crunch',
    rawInput: {},
    attempt: 1,
    ...overrides,
  };
}
