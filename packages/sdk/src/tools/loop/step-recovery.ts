import type { RecoverOptions, RecoveryAttempt } from '../../recovery/recover-options.js';
import type { Message } from '../../wire/index.js';

/** One step's `recover` option for `messages.send` / `stream`, and the attempts it records. */
export interface StepRecovery {
  recover: RecoverOptions;
  attempts: RecoveryAttempt[];
}

/**
 * The loop's `recover` option for one step: its attempts are kept for the step, and the
 * conversation's last index is passed on when the loop knows it (from its earlier replies), so a
 * resume needs no read of the session before it is sent. `onAttempt` is the caller's
 * `recover.onAttempt`, guarded by the loop.
 */
export function stepRecovery(
  recover: true | RecoverOptions | undefined,
  known: ReadonlyMap<number, Message>,
  onAttempt: ((attempt: RecoveryAttempt) => void) | undefined,
): StepRecovery | undefined {
  if (!recover) return undefined;
  const options = recover === true ? {} : recover;
  const attempts: RecoveryAttempt[] = [];
  const lastIndex = known.size > 0 ? Math.max(...known.keys()) : options.lastIndex;
  return {
    attempts,
    recover: {
      ...options,
      ...(lastIndex !== undefined && { lastIndex }),
      onAttempt: (attempt) => {
        attempts.push(attempt);
        onAttempt?.(attempt);
      },
    },
  };
}
