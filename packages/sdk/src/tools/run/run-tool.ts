import { APIUserAbortError } from '../../errors/index.js';
import { CallbackFailures } from '../../internal/callback-failures.js';
import { linkedSignal } from '../../internal/linked-signal.js';
import { warnUnknownOptions } from '../../internal/unknown-options.js';
import { describeValue } from '../../internal/wrong-value.js';
import { activeContext } from '../../tracing/active-context.js';
import { ROOT_CONTEXT } from '../../tracing/root-context.js';
import type { ContextLike, TracerOption } from '../../tracing/tracer-like.js';
import type { PendingTool } from '../../wire/index.js';
import type { AnyTool, ToolMiddleware } from '../define/define-tool.js';
import { type CallTimes, callControls } from './call-controls.js';
import type { Heartbeat } from './heartbeat.js';
import type { ToolInputRepairer } from './input-repair.js';
import { runCall } from './run-call.js';
import type { ToolApprover } from './tool-approval.js';
import type { ToolRunResult } from './tool-run-result.js';
import { startToolRunSpan } from './tool-run-trace.js';
import type { ToolClient, ToolTransport } from './tool-transport.js';

export interface RunToolOptions<TTool extends AnyTool = AnyTool> {
  sessionId: string;
  /**
   * The call to run: an entry of `reply.pendingTools` (`requestId`, `name` and `input` are read;
   * `createdAt` and `deadlineAt`, when there, end an approval wait before the call's deadline).
   */
  pending: Pick<PendingTool, 'requestId' | 'name' | 'input'> & CallTimes;
  tool: TTool;
  /** The server's timeout from the reply (`reply.heartbeatTimeoutMs`); sets the heartbeat interval. */
  heartbeatTimeoutMs?: number | undefined;
  /** Aborts the handler (through its `ctx.signal`), the heartbeat and the report; the call rejects. */
  signal?: AbortSignal | undefined;
  /**
   * The server's request body limit in bytes. An output whose response body would be larger is
   * not sent: the model gets an ERROR saying how large it was (a `ToolOutputTooLargeError`), and
   * so it does when the server refuses the body with `413` (its limit then comes from the 413).
   * Default `defaults.tools.maxBodyBytes` (1 MiB, the reference server's `maxBodyBytes`);
   * `Infinity` leaves the size to the server.
   */
  maxBodyBytes?: number | undefined;
  /** Attempts of the terminal report. Default 5. */
  maxReportAttempts?: number | undefined;
  /** Source of heartbeat jitter, `[0, 1)` (the report's retries wait the client's backoff). */
  random?: (() => number) | undefined;
  /** Called with each failed heartbeat that did not end the timer (for logging). */
  onHeartbeatError?: ((error: unknown) => void) | undefined;
  /** Called after each successful heartbeat with the count so far (progress display, metrics). */
  onHeartbeat?: ((beats: number) => void) | undefined;
  /** Records the run's span (`execute_tool {name}`) there. Default: the client's `tracer`. */
  tracer?: TracerOption | undefined;
  /** The parent of the run's span. Default: the active context. */
  traceContext?: ContextLike | undefined;
  /**
   * Asked before the handler of a tool with `needsApproval` runs, about the input that runs, while
   * the heartbeat keeps the lease: approve (with an edited input or not), deny, or respond with a
   * result without running it (see `ToolApprovalAnswer`). Required when the tool needs approval.
   */
  approve?: ToolApprover | undefined;
  /** The handler's time limit in ms when the tool sets none (`defineTool({ timeoutMs })` wins). */
  toolTimeoutMs?: number | undefined;
  /**
   * When the reply with this call arrived, in `Date.now()` ms: the call's lifetime
   * (`deadlineAt - createdAt`) is counted from here. Default: when `runTool` starts.
   */
  receivedAt?: number | undefined;
  /**
   * Functions `(call, next) => output` around the run, outside the tool's own `middleware` (the
   * first is the outermost); the approval and the time limit run inside them, and `next()` rejects
   * with a `ToolExecutionError`. See `ToolMiddleware`.
   */
  middleware?: readonly ToolMiddleware[] | undefined;
  /**
   * Asked when the input fails the tool's schema: return a fixed input to run the tool with (the
   * result records it in `repair`), or nothing to report the schema's error to the model.
   */
  repairToolInput?: ToolInputRepairer | undefined;
  /**
   * The handler's `ctx.attempt`: 1 (the default) for a call no one ran before, more when an earlier
   * worker had claimed it (`runToolLoop({ resume: true })` sets it).
   */
  attempt?: number | undefined;
  /**
   * A lease token (the server's lease extension, docs/protocol.md): beats and reports carry it, the
   * handler starts once the first beat holds the call, a call another worker holds is `LOST` with
   * reason `LEASED` (never run here), and `ctx.attempt` is the server's count. A server without the
   * extension ignores it.
   */
  leaseToken?: string | undefined;
  /**
   * @internal The call's heartbeat, started by the tool loop when the call arrived (it beats queued
   * calls too). The call uses and stops it instead of starting its own.
   */
  heartbeat?: Heartbeat | undefined;
  /**
   * @internal The call is leased to `leaseToken` already (the send whose reply made it carried the
   * token, as the tool loop's do): the handler starts at once, beside the first beat.
   */
  leased?: boolean | undefined;
  /**
   * @internal With `leased`: the `Date.now()` time its send started, when its reply showed the call
   * `PROCESSING` (the server's lease extension counts that send as the call's pickup). The first beat
   * is then due an interval after it, not at once (`HeartbeatOptions.heldSince`).
   */
  heldSince?: number | undefined;
}

/**
 * Runs one pending tool call from start to terminal report. The heartbeat starts at once, beside
 * the handler; the input is parsed with the tool's schema (a failure is reported as ERROR without
 * running the handler); a thrown error becomes ERROR with its message; the output is checked
 * against the output schema. The heartbeat is stopped, and its beat in flight awaited, before the
 * response or failure is sent; that report is retried on connection errors and 5xx. When the
 * heartbeat loses the call the handler's signal aborts with a `ToolCallLostError` and nothing is
 * reported. What the tool or the caller supplies may throw (a schema, the handler, a middleware,
 * `needsApproval`, `approve`, `repairToolInput`): the call is then reported as ERROR with the thrown
 * text; one that hangs is ended one heartbeat interval before the call's deadline, when `pending`
 * has its `createdAt` and `deadlineAt`. Resolves with what happened;
 * rejects only when `signal` aborts, the report fails for good, or `onHeartbeat` /
 * `onHeartbeatError` threw (a `ParleyError` whose `cause` is the thrown value, once the call is
 * settled).
 *
 * @example
 * const reply = await client.messages.send(sessionId, { content: 'Weather in Paris?' });
 * for (const pending of reply.pendingTools) {
 *   const result = await runTool(client, {
 *     sessionId, pending, tool: getWeather, heartbeatTimeoutMs: reply.heartbeatTimeoutMs,
 *   });
 *   console.log(result.status); // 'COMPLETE'
 * }
 * await client.messages.send(sessionId, {}); // resume
 */
export async function runTool<TTool extends AnyTool>(
  client: ToolClient | ToolTransport,
  options: RunToolOptions<TTool>,
): Promise<ToolRunResult<TTool>> {
  warnUnknownOptions(options, 'runTool()');
  const { signal, maxBodyBytes } = options;
  if (maxBodyBytes !== undefined && !(maxBodyBytes > 0)) {
    throw new RangeError(
      `runTool: maxBodyBytes must be a positive number of bytes, got ${describeValue(maxBodyBytes)}`,
    );
  }
  if (signal?.aborted) throw new APIUserAbortError('Tool run aborted', { cause: signal.reason });
  const controls = callControls(options);
  const tracer = options.tracer ?? ('tools' in client ? client.tracer : undefined);
  const span =
    tracer && startToolRunSpan(tracer, options, options.traceContext ?? activeContext() ?? ROOT_CONTEXT);
  const tools = 'tools' in client ? client.tools : client;
  // The caller's hooks: one that throws does not stop the call; runTool rejects once it is settled.
  const hooks = new CallbackFailures('runTool');
  const onBeat = hooks.guard('onHeartbeat', options.onHeartbeat, span?.beat);
  const onBeatError = hooks.guard('onHeartbeatError', options.onHeartbeatError, span?.beatError);
  // One listener on the caller's signal for the whole call, released at its end (not one for each
  // part of it): a loop's step signal serves several calls at once, and Node warns past ten.
  const link = signal ? linkedSignal(signal) : undefined;
  const run = () =>
    runCall(span ? span.transport(tools) : tools, {
      sessionId: options.sessionId,
      pending: options.pending,
      tool: options.tool,
      signal: link?.signal,
      heartbeatTimeoutMs: options.heartbeatTimeoutMs,
      random: options.random,
      onBeat,
      onBeatError,
      controls,
      maxBodyBytes,
      maxReportAttempts: options.maxReportAttempts,
      attempt: options.attempt ?? 1,
      leaseToken: options.leaseToken,
      heartbeat: options.heartbeat,
      heldSince: options.heldSince,
      awaitClaim: options.leaseToken !== undefined && options.heartbeat === undefined && !options.leased,
    });
  let result: ToolRunResult<TTool>;
  try {
    result = await (span ? span.within(run) : run());
  } catch (error) {
    span?.fail(error);
    throw error;
  } finally {
    link?.unlink();
    // A hook's failure from now on is reported (console.error), not kept.
    hooks.end();
  }
  span?.end(result);
  hooks.throwIfFailed();
  return result;
}
