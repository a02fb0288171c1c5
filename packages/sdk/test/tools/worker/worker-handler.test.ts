import { defaults, ToolWorkerDataError, ToolWorkerError, ToolWorkerTimeoutError } from '@parley/sdk';
import { serveToolHandler, workerHandler } from '@parley/sdk/worker';
import { describe, expect, test } from 'vitest';
import { ExitLog, fixture, SOURCE_EXEC_ARGV, sharedFlags, started, toolContext } from './helpers.js';

const CPU_BOUND = fixture('cpu-bound-worker.mjs');

function cpuBound(options: Parameters<typeof workerHandler>[1] = {}) {
  return workerHandler(CPU_BOUND, { execArgv: SOURCE_EXEC_ARGV, ...options });
}

describe('workerHandler: the handler runs in a worker thread', () => {
  test('the worker gets the parsed input and the call context, and its output comes back', async () => {
    const log = new ExitLog();
    const run = cpuBound({ onExit: log.onExit });
    const ctx = toolContext({ rawInput: { mode: 'context', extra: 'raw' } });
    const output = await run({ mode: 'context', n: 1 }, ctx);
    expect(output).toEqual({
      input: { mode: 'context', n: 1 },
      sessionId: 'sess_1',
      requestId: 'toolu_1',
      name: 'crunch',
      rawInput: { mode: 'context', extra: 'raw' },
    });
    // Each call has its own worker, shut down once it answered.
    expect(await log.nth(1)).toEqual({ requestId: 'toolu_1', reason: 'done', terminated: false });
  });

  test('an error the handler throws arrives with its own message, name and stack kept', async () => {
    const error = await cpuBound()(
      { mode: 'throw', message: 'City not found: Atlantis' },
      toolContext(),
    ).catch((e: unknown) => e);
    expect(error instanceof ToolWorkerError).toBe(true);
    expect(error).toBeInstanceOf(ToolWorkerError);
    expect((error as ToolWorkerError).message).toBe('City not found: Atlantis');
    expect((error as ToolWorkerError).thrown).toMatchObject({
      name: 'RangeError',
      message: 'City not found: Atlantis',
    });
    expect((error as ToolWorkerError).thrown?.stack).toContain('cpu-bound-worker.mjs');
  });

  test('a thrown non-error keeps an empty message, as on the main thread', async () => {
    const error = await cpuBound()({ mode: 'throw-nothing' }, toolContext()).catch((e: unknown) => e);
    expect(error instanceof ToolWorkerError).toBe(true);
    expect((error as Error).message).toBe('');
  });
});

describe('workerHandler: only plain JSON data crosses the thread boundary', () => {
  test.each([
    ['return-function', 'output.format', 'a function'],
    ['return-instance', 'output.reading.now', 'a Temperature (class instance)'],
    ['return-date', 'output.readings[0].at', 'a Date (class instance; send date.toISOString())'],
  ])('an output with %s is a ToolWorkerDataError naming %s', async (mode, path, found) => {
    const error = await cpuBound()({ mode }, toolContext()).catch((e: unknown) => e);
    expect(error instanceof ToolWorkerDataError).toBe(true);
    expect(error).toBeInstanceOf(ToolWorkerDataError);
    expect((error as ToolWorkerDataError).path).toBe(path);
    expect((error as Error).message).toBe(
      `Tool "crunch" returned output its worker cannot send back: ${path} is ${found}. ` +
        'A tool worker must return plain JSON data (objects, arrays, strings, numbers, booleans, null).',
    );
  });

  test('a parsed input that is not plain data is refused before any worker starts', async () => {
    const log = new ExitLog();
    const run = cpuBound({ onExit: log.onExit });
    const cyclic: Record<string, unknown> = { mode: 'context' };
    cyclic.self = cyclic;
    for (const [input, path, found] of [
      [{ mode: 'context', when: new Date(0) }, 'input.when', 'a Date'],
      [{ mode: 'context', size: 10n }, 'input.size', 'a bigint'],
      [cyclic, 'input.self', 'a circular reference'],
      [{ mode: 'context', 'odd key': [Symbol('s')] }, 'input["odd key"][0]', 'a symbol'],
    ] as const) {
      const error = await run(input as Record<string, unknown>, toolContext()).catch((e: unknown) => e);
      expect(error instanceof ToolWorkerDataError).toBe(true);
      expect(error).toMatchObject({ path });
      expect((error as Error).message).toContain(`${path} is ${found}`);
    }
    expect(log.exits).toEqual([]);
  });

  test('workerData that cannot be cloned is a ToolWorkerDataError, and the worker is stopped', async () => {
    const log = new ExitLog();
    const run = cpuBound({ workerData: { callback: () => 1 }, onExit: log.onExit });
    const error = await run({ mode: 'context' }, toolContext()).catch((e: unknown) => e);
    expect(error instanceof ToolWorkerDataError).toBe(true);
    expect(error).toMatchObject({ path: 'workerData' });
    expect((error as Error).message).toMatch(/^Tool "crunch": workerData cannot be sent to its worker: /);
    expect(await log.nth(1)).toMatchObject({ reason: 'failed' });
  });
});

describe('workerHandler: abort, time limit and a failing worker', () => {
  test('an abort rejects at once with the signal reason and terminates a handler that ignores it', async () => {
    const flags = sharedFlags();
    const log = new ExitLog();
    const run = cpuBound({ workerData: flags, onExit: log.onExit });
    const controller = new AbortController();
    const call = run({ mode: 'forever' }, toolContext({ signal: controller.signal }));
    await started(flags);
    const reason = new Error('run aborted');
    controller.abort(reason);
    await expect(call).rejects.toBe(reason);
    // The worker never looks at its signal: only terminate() stops it.
    expect(await log.nth(1)).toEqual({ requestId: 'toolu_1', reason: 'aborted', terminated: true });
  });

  test.each(['until-aborted', 'until-throw-if-aborted', 'await-abort'])(
    'a handler sees its signal abort (shared flag, or the message once it awaits) and stops by itself: %s',
    async (mode) => {
      const flags = sharedFlags();
      const log = new ExitLog();
      // A grace period long enough that only the handler itself can end the worker before it.
      const run = cpuBound({ workerData: flags, onExit: log.onExit, abortGraceMs: 60_000 });
      const controller = new AbortController();
      const call = run({ mode }, toolContext({ signal: controller.signal }));
      await started(flags);
      controller.abort(new Error('lost'));
      await expect(call).rejects.toThrow('lost');
      expect(await log.nth(1)).toEqual({ requestId: 'toolu_1', reason: 'aborted', terminated: false });
    },
  );

  test('a handler past timeoutMs fails with ToolWorkerTimeoutError and its worker is terminated', async () => {
    const flags = sharedFlags();
    const log = new ExitLog();
    const run = cpuBound({ timeoutMs: 300, workerData: flags, onExit: log.onExit, abortGraceMs: 0 });
    const error = await run({ mode: 'forever' }, toolContext()).catch((e: unknown) => e);
    // The limit counts from the start of the worker, so the handler may or may not have begun
    // within it (worker-host.test.ts checks the counting on a fake clock): either way it is stopped.
    expect(error instanceof ToolWorkerTimeoutError).toBe(true);
    expect(error).toMatchObject({
      timeoutMs: 300,
      message: 'Tool "crunch" ran past its 300 ms time limit and was stopped',
    });
    expect(await log.nth(1)).toEqual({ requestId: 'toolu_1', reason: 'timed_out', terminated: true });
  });

  test('an already aborted signal starts no worker', async () => {
    const log = new ExitLog();
    const reason = new Error('too late');
    const call = cpuBound({ onExit: log.onExit })(
      { mode: 'context' },
      toolContext({ signal: AbortSignal.abort(reason) }),
    );
    await expect(call).rejects.toBe(reason);
    expect(log.exits).toEqual([]);
  });

  test('a worker that exits on its own is a ToolWorkerError with its exit code', async () => {
    const log = new ExitLog();
    const error = await cpuBound({ onExit: log.onExit })({ mode: 'exit' }, toolContext()).catch(
      (e: unknown) => e,
    );
    expect(error instanceof ToolWorkerError).toBe(true);
    expect((error as Error).message).toBe(
      'Tool "crunch": its worker exited with code 3 before returning a result (does the module call serveToolHandler?)',
    );
    expect(await log.nth(1)).toEqual({ requestId: 'toolu_1', reason: 'failed', terminated: false });
  });

  test('a module that never calls serveToolHandler, or fails to load, is a ToolWorkerError', async () => {
    const silent = workerHandler(fixture('silent-worker.mjs'), { execArgv: SOURCE_EXEC_ARGV });
    await expect(silent({}, toolContext())).rejects.toThrow(
      'Tool "crunch": its worker exited with code 0 before returning a result (does the module call serveToolHandler?)',
    );
    const broken = workerHandler(fixture('broken-worker.mjs'), { execArgv: SOURCE_EXEC_ARGV });
    await expect(broken({}, toolContext())).rejects.toThrow(
      'Tool "crunch": its worker failed: cannot load: missing configuration',
    );
    const missing = workerHandler(fixture('no-such-worker.mjs'), { execArgv: SOURCE_EXEC_ARGV });
    await expect(missing({}, toolContext())).rejects.toThrow(
      /^Tool "crunch": its worker failed: Cannot find module/,
    );
  });

  test('bad options are refused when the handler is made', () => {
    expect(() => workerHandler(CPU_BOUND, { timeoutMs: 0 })).toThrow(
      'workerHandler: timeoutMs must be a positive number of milliseconds, got 0',
    );
    expect(() => workerHandler(CPU_BOUND, { abortGraceMs: -1 })).toThrow(
      'workerHandler: abortGraceMs must be a number >= 0, got -1',
    );
    expect(defaults.tools.abortGraceMs).toBe(100);
  });

  test('serveToolHandler refuses to run on the main thread', () => {
    expect(() => serveToolHandler(() => ({}))).toThrow(
      'serveToolHandler must run in a worker thread started by workerHandler, not on the main thread',
    );
  });
});

describe('workerHandler: a malformed message from a worker fails the call, never the host', () => {
  const MALFORMED = fixture('malformed-worker.mjs');

  /** Counts errors that escaped to the process (each would end a Node host without a handler). */
  function watchProcess(): { escaped: unknown[]; stop(): void } {
    const escaped: unknown[] = [];
    const onError = (error: unknown) => escaped.push(error);
    process.on('uncaughtException', onError);
    process.on('unhandledRejection', onError);
    return {
      escaped,
      stop: () => {
        process.off('uncaughtException', onError);
        process.off('unhandledRejection', onError);
      },
    };
  }

  test.each([
    ['error-without-error', 'an "error" message: it has no "error"'],
    ['error-null', 'an "error" message: "error" is null, not an object'],
    ['error-message-number', 'an "error" message: "error.message" is the number 42, not a string'],
    ['unknown-kind', 'a message has an unknown kind "progress" (expected "ready", "result" or "error")'],
    ['no-kind', 'a message has no "kind"'],
    ['result-without-output', 'a "result" message has no "output"'],
    ['ready-twice', 'a second "ready" message'],
  ])('%s: the call fails at once naming it, and the worker is terminated', async (mode, problem) => {
    const process = watchProcess();
    const log = new ExitLog();
    try {
      // No timeoutMs: only the refusal can end this call (the handler never returns).
      const run = workerHandler(MALFORMED, {
        execArgv: SOURCE_EXEC_ARGV,
        workerData: mode,
        onExit: log.onExit,
      });
      const error = await run({}, toolContext()).catch((e: unknown) => e);
      expect(error instanceof ToolWorkerError).toBe(true);
      expect((error as Error).message).toBe(
        `Tool "crunch": its worker sent a malformed message (${problem}); the worker was stopped`,
      );
      expect(await log.nth(1)).toEqual({ requestId: 'toolu_1', reason: 'failed', terminated: true });
      expect(process.escaped).toEqual([]);
    } finally {
      process.stop();
    }
  });

  test.each([
    ['result-map', 'output', 'a Map (class instance)'],
    ['result-date-inside', 'output.at', 'a Date (class instance; send date.toISOString())'],
  ])(
    '%s: output posted by the module itself that is not plain data is refused, not sent as {}',
    async (mode, path, found) => {
      const log = new ExitLog();
      const run = workerHandler(MALFORMED, {
        execArgv: SOURCE_EXEC_ARGV,
        workerData: mode,
        onExit: log.onExit,
      });
      const error = await run({}, toolContext()).catch((e: unknown) => e);
      expect(error instanceof ToolWorkerDataError).toBe(true);
      expect(error).toMatchObject({ path });
      expect((error as Error).message).toBe(
        `Tool "crunch" returned output its worker cannot send back: ${path} is ${found}. ` +
          'A tool worker must return plain JSON data (objects, arrays, strings, numbers, booleans, null).',
      );
      expect(await log.nth(1)).toMatchObject({ reason: 'done' });
    },
  );

  test('a result posted before the call was sent is refused', async () => {
    const log = new ExitLog();
    const run = workerHandler(fixture('early-result-worker.mjs'), {
      execArgv: SOURCE_EXEC_ARGV,
      onExit: log.onExit,
    });
    await expect(run({}, toolContext())).rejects.toThrow(
      'Tool "crunch": its worker sent a malformed message (a "result" message before the call was sent to it); the worker was stopped',
    );
    expect(await log.nth(1)).toMatchObject({ reason: 'failed', terminated: true });
  });
});
