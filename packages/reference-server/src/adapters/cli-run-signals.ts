import { SIGNAL_DEBOUNCE_MS } from './cli-run-debounce.js';
import { type SignalSource, STOP_SIGNALS, type StopSignal } from './stop-on-signals.js';

/** What {@link relayStopSignals} does with the signals it counts. */
export interface StopSignalTarget {
  /** The first stop signal: passed on to the command (when it runs). */
  stop(signal: StopSignal): void;
  /** A second stop signal, later than {@link SIGNAL_DEBOUNCE_MS} after the first: SIGKILL. */
  kill(): void;
}

/** The signals {@link relayStopSignals} listens to, and the first it counted. */
export interface StopSignalRelay {
  /** The first stop signal received, if any. */
  readonly first: StopSignal | undefined;
  /** Stops listening. */
  dispose(): void;
}

/**
 * Counts SIGINT and SIGTERM for `parley-server run`: the first is passed on with `target.stop`;
 * any other within {@link SIGNAL_DEBOUNCE_MS} of it is the same one delivered twice and is
 * ignored; one after that calls `target.kill`, so a command that ignores signals cannot hold the
 * job. `now` is the clock the window is measured on (tests pass their own).
 */
export function relayStopSignals(
  source: SignalSource,
  target: StopSignalTarget,
  now: () => number = Date.now,
): StopSignalRelay {
  let first: { signal: StopSignal; at: number } | undefined;
  const listeners = STOP_SIGNALS.map((signal) => {
    const listener = () => {
      if (first === undefined) {
        first = { signal, at: now() };
        target.stop(signal);
      } else if (now() - first.at > SIGNAL_DEBOUNCE_MS) {
        target.kill();
      }
    };
    source.on(signal, listener);
    return [signal, listener] as const;
  });
  return {
    get first() {
      return first?.signal;
    },
    dispose() {
      for (const [signal, listener] of listeners) source.off(signal, listener);
    },
  };
}
