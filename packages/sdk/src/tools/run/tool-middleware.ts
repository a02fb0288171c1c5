import type { ToolContext, ToolMiddleware } from '../define/define-tool.js';
import type { ToolObject } from '../define/tool-schema.js';
/** A failure of a call, as the model reads it (the `error` outcome of `executeTool`). */
export interface ErrorOutcome {
  kind: 'error';
  message: string;
  cause: unknown;
}

/** What the chain's innermost step (approval, time limit, handler) came to. */
export type InnerOutcome = { kind: 'returned'; value: unknown } | ErrorOutcome;

/**
 * A failure of the inner chain with no `Error` of its own (a denied approval, a handler that threw a
 * string), as the rejection a middleware sees: its message is what the model reads.
 */
class ToolFailure extends Error {
  override name = 'ToolFailure' as const;
}

/**
 * Runs `inner` through `middleware` (the first is the outermost). A failure of `inner` reaches the
 * middleware as a rejection of `next()` with what failed (the handler's error, the
 * `ToolTimeoutError`; for a failure with no `Error` of its own, such as a denied approval, an `Error`
 * whose message is what the model reads);
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
  const failures = new Map<unknown, ErrorOutcome>();
  const dispatch = async (index: number, current: unknown): Promise<unknown> => {
    const layer = middleware[index];
    if (layer === undefined) {
      const outcome = await inner(current);
      if (outcome.kind === 'returned') return outcome.value;
      const thrown =
        outcome.cause instanceof Error
          ? outcome.cause
          : new ToolFailure(outcome.message, { cause: outcome.cause });
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
