import type { CliIo } from './cli-command.js';
import type { RunningServer } from './start-server.js';
import { StopFailure } from './stop-failure.js';

/** The signals that stop the server: Ctrl+C and a service manager's stop. */
export const STOP_SIGNALS = ['SIGINT', 'SIGTERM'] as const;
export type StopSignal = (typeof STOP_SIGNALS)[number];

/** Where signals come from: `process` in the CLI, an EventEmitter in tests. */
export interface SignalSource {
  on(signal: StopSignal, listener: () => void): unknown;
  off(signal: StopSignal, listener: () => void): unknown;
}

/**
 * Stops the server at the first SIGINT or SIGTERM: open streams end, connections close, one line
 * is printed, then `exit(0)` (`exit(1)` with a message if closing fails; a {@link StopFailure}'s
 * code and message when the server stopped but the run failed, as with `--fail-on-violation`). Call it before the server
 * starts, with the promise of it, so that no signal can find the process without a listener (and
 * kill it) between the listening line and this call; a signal during startup stops the server once
 * it runs, and does nothing if it never does. Later signals while it stops are ignored: a Ctrl+C
 * under `pnpm start` can arrive twice (from the terminal and relayed by the runner), and the second
 * must not kill the process half-way. Returns a function that removes the listeners.
 */
export function stopOnSignals(
  server: Promise<RunningServer | undefined>,
  io: CliIo,
  exit: (code: number) => void,
  source: SignalSource,
): () => void {
  let stopping = false;
  const stop = async (signal: StopSignal) => {
    const running = await server.catch(() => undefined);
    if (running === undefined) return;
    try {
      await running.close();
    } catch (error) {
      // Stopped, and the run failed all the same (--fail-on-violation): its message and exit code.
      if (error instanceof StopFailure) {
        io.stdout(`Parley reference server stopped (${signal})\n`);
        io.stderr(`${error.message}\n`);
        exit(error.exitCode);
        return;
      }
      io.stderr(`parley-server: error while stopping: ${(error as Error)?.message ?? String(error)}\n`);
      exit(1);
      return;
    }
    io.stdout(`Parley reference server stopped (${signal})\n`);
    exit(0);
  };
  const listeners = STOP_SIGNALS.map((signal) => {
    const listener = () => {
      if (stopping) return;
      stopping = true;
      void stop(signal);
    };
    source.on(signal, listener);
    return [signal, listener] as const;
  });
  return () => {
    for (const [signal, listener] of listeners) source.off(signal, listener);
  };
}
