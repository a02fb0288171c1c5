import { CLASS_BRAND, ParleyError } from './parley-error.js';

/**
 * What stopped a tool call on its way through the pipeline (see {@link ToolExecutionError}):
 * - `INVALID_INPUT`: the input failed the tool's schema (and `repairToolInput` did not fix it);
 * - `INVALID_OUTPUT`: the output is not an object, fails the output schema, or is too large;
 * - `MIDDLEWARE_FAILED`: a middleware threw or rejected;
 * - `APPROVAL_DENIED`: `approve` answered `{ approved: false, reason }`;
 * - `APPROVAL_FAILED`: `approve` or `needsApproval` threw, `approve` answered something else, or
 *   an edited input failed the schema;
 * - `APPROVAL_TIMED_OUT`: no answer before the call's deadline;
 * - `INPUT_CHANGED`: a middleware passed `next()` another input than the one approval was asked about;
 * - `TIMED_OUT`: the handler ran past its time limit, or the call past its deadline;
 * - `HANDLER_FAILED`: the handler threw or rejected.
 */
export type ToolExecutionFailure =
  | 'INVALID_INPUT'
  | 'INVALID_OUTPUT'
  | 'MIDDLEWARE_FAILED'
  | 'APPROVAL_DENIED'
  | 'APPROVAL_FAILED'
  | 'APPROVAL_TIMED_OUT'
  | 'INPUT_CHANGED'
  | 'TIMED_OUT'
  | 'HANDLER_FAILED';

/**
 * A tool call failed on its way through the pipeline: what a middleware's `next()` rejects with,
 * whatever failed inside it (a denied approval, the time limit, the handler's error, an inner
 * middleware). `message` is what the model reads, `reason` says which stage failed, and `cause` is
 * what failed (the handler's thrown value, the `ToolTimeoutError`, the denial). A middleware that
 * rethrows it unchanged leaves the call's ERROR as it would have been without the middleware.
 *
 * @example
 * const retryOnTimeout: ToolMiddleware = async (_call, next) => {
 *   try {
 *     return await next();
 *   } catch (error) {
 *     if (error instanceof ToolExecutionError && error.reason === 'TIMED_OUT') return next();
 *     throw error;
 *   }
 * };
 */
export class ToolExecutionError extends ParleyError {
  /** @internal */
  static override readonly [CLASS_BRAND]: string = 'ToolExecutionError';
  override readonly name = 'ToolExecutionError' as const;
  readonly reason: ToolExecutionFailure;
  /** The tool's name as the model called it. */
  readonly toolName: string;
  /** The `tool_use` id of the call. */
  readonly requestId: string;
  constructor(
    message: string,
    init: { reason: ToolExecutionFailure; toolName: string; requestId: string; cause?: unknown },
  ) {
    super(message, { cause: init.cause });
    this.reason = init.reason;
    this.toolName = init.toolName;
    this.requestId = init.requestId;
  }
}
