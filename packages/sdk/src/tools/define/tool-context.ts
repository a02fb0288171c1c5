import type { ToolObject } from './tool-schema.js';

/** What a tool handler gets besides its parsed input. */
export interface ToolContext {
  /**
   * Aborted when the work is no longer wanted: the call was lost (its `reason` is then a
   * `ToolCallLostError` with `ABANDONED`, `NOT_FOUND` or `TIMED_OUT`) or the caller aborted the run.
   * Pass it to `fetch` and check it in long loops.
   */
  signal: AbortSignal;
  sessionId: string;
  /** The `tool_use` id, which is the `:requestId` of the tool endpoints. */
  requestId: string;
  /** The tool's name as the model called it. */
  name: string;
  /** The input exactly as the model sent it, before the input schema parsed it. */
  rawInput: ToolObject;
  /**
   * 1 for the call's first run. More than 1 when a worker had claimed the call before this run (a
   * `runToolLoop({ resume: true })` after a crash): that run may have done part or all of the work,
   * so make side effects idempotent, keyed on `requestId` (docs/tool-workers.md, "After a crash").
   */
  attempt: number;
}

/** One tool call as a middleware sees it, its input parsed by the tool's schema. */
export interface ToolMiddlewareCall<TInput = unknown> {
  /** The parsed input: what the handler gets unless a middleware passes another to `next`. */
  input: TInput;
  /** The handler's context: `signal`, `sessionId`, `requestId`, `name`, `rawInput`, `attempt`. */
  ctx: ToolContext;
}

/**
 * A function around every run of a tool (logging, caching, auth, retries, metrics). `next(input?)`
 * runs the rest of the chain (the inner middleware, then the approval, the time limit and the
 * handler) and resolves with the handler's output, or rejects with a `ToolExecutionError` (from
 * `@parley/sdk/tools`) whose `reason` says what failed (a denial, the time limit, the handler) and
 * whose `cause` is what failed. Each `next()` runs the handler with a signal and a time limit of its
 * own; approval covers only the input it was asked about (another one after a decision fails the
 * call). Return an output without calling `next` to short-circuit with a result; throw to
 * short-circuit with an error (the model gets its message, as for a handler that throws). What the
 * middleware returns is checked by the tool's output schema.
 *
 * @example
 * const logged: ToolMiddleware = async (call, next) => {
 *   const started = Date.now();
 *   try {
 *     return await next();
 *   } finally {
 *     console.log(call.ctx.name, Date.now() - started, 'ms');
 *   }
 * };
 */
// With no type arguments (`ToolMiddleware`), a middleware fits every tool: a tool's own typed list and
// the loop's. Its input and output are then `any`: narrow them before use (the tool's schemas check
// both at run time).
// biome-ignore lint/suspicious/noExplicitAny: see above.
export type ToolMiddleware<TInput = any, TOutput = any> = (
  call: ToolMiddlewareCall<TInput>,
  next: (input?: TInput) => Promise<TOutput>,
) => TOutput | Promise<TOutput>;
