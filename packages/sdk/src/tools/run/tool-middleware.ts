import type { ToolContext, ToolMiddleware } from '../define/define-tool.js';
import type { ToolObject } from '../define/tool-schema.js';
import type { Outcome } from './outcome.js';

/** What the chain's innermost step (approval, time limit, handler) came to. */
export type InnerOutcome = { kind: 'returned'; value: unknown } | (Outcome & { kind: 'error' });

/** A refusal of the inner chain that has no error of its own (a denied approval), as a rejection. */
class ToolNotRunError extends Error {
  override name = 'ToolNotRunError' as const;
}

/**
 * Runs `inner` through `middleware` (the first is the outermost). A failure of `inner` reaches the
 * middleware as a rejection of `next()` with what failed (the handler's error, the
 * `ToolTimeoutError`; for a denied approval an `Error` whose message is what the model reads);
 * when that rejection propagates out unchanged, the call's outcome is the failure as it was. Anything
 * else a middleware throws is the call's error.
 */
export async function runMiddleware(
  middleware: readonly ToolMiddleware[],
  input: unknown,
  ctx: ToolContext,
  inner: (input: unknown) => Promise<InnerOutcome>,
  describe: (error: unknown) => string,
): Promise<InnerOutcome> {
  const failures = new Map<unknown, Outcome & { kind: 'error' }>();
  const dispatch = async (index: number, current: unknown): Promise<unknown> => {
    const layer = middleware[index];
    if (layer === undefined) {
      const outcome = await inner(current);
      if (outcome.kind === 'returned') return outcome.value;
      const thrown =
        outcome.cause instanceof Error
          ? outcome.cause
          : new ToolNotRunError(outcome.message, { cause: outcome.cause });
      failures.set(thrown, outcome);
      throw thrown;
    }
    const next = (changed?: unknown): Promise<ToolObject> =>
      dispatch(index + 1, changed === undefined ? current : changed) as Promise<ToolObject>;
    return layer({ input: current, ctx }, next);
  };
  try {
    return { kind: 'returned', value: await dispatch(0, input) };
  } catch (error) {
    return failures.get(error) ?? { kind: 'error', message: describe(error), cause: error };
  }
}
