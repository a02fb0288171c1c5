import {
  APIUserAbortError,
  isConflictError,
  isNotFoundError,
  isPayloadTooLargeError,
  ToolCallLostError,
  ToolReportError,
} from '../../errors/index.js';
import { linkedSignal } from '../../internal/linked-signal.js';
import { raceSignal } from '../../internal/race-signal.js';
import type { ContextLike, TracerOption } from '../../tracing/tracer-like.js';
import type { PendingTool } from '../../wire/index.js';
import type { AnyTool, ToolContext, ToolMiddleware } from '../define/define-tool.js';
import { type CallControls, type CallTimes, callControls } from './call-controls.js';
import { checkOutputSize, executeTool, type Outcome } from './execute-tool.js';
import { Heartbeat } from './heartbeat.js';
import type { ToolInputRepairer } from './input-repair.js';
import { responseBodyBytes, toolOutputTooLarge } from './output-size.js';
import { reportWithRetry } from './report.js';
import type { ToolApprover } from './tool-approval.js';
import type { ToolRunBase, ToolRunLost, ToolRunOutput, ToolRunResult } from './tool-run-result.js';
import { traceToolRun } from './tool-run-trace.js';
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
   * Asked before the handler of a tool with `needsApproval` runs, while the heartbeat keeps the
   * lease (see `runToolLoop`'s `approve`). Required when the tool needs approval.
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
   * first is the outermost); the approval and the time limit run inside them. See `ToolMiddleware`.
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
}

/**
 * Runs one pending tool call from start to terminal report. The heartbeat starts at once, beside
 * the handler; the input is parsed with the tool's schema (a failure is reported as ERROR without
 * running the handler); a thrown error becomes ERROR with its message; the output is checked
 * against the output schema. The heartbeat is stopped, and its beat in flight awaited, before the
 * response or failure is sent; that report is retried on connection errors and 5xx. When the
 * heartbeat loses the call the handler's signal aborts with a `ToolCallLostError` and nothing is
 * reported. Resolves with what happened; rejects only when `signal` aborts or the report fails for
 * good.
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
  const transport = 'tools' in client ? client.tools : client;
  const { signal, maxBodyBytes } = options;
  if (maxBodyBytes !== undefined && !(maxBodyBytes > 0)) {
    throw new RangeError(`runTool: maxBodyBytes must be a positive number of bytes, got ${maxBodyBytes}`);
  }
  if (signal?.aborted) throw abortError(signal);
  const controls = callControls(options);
  // One listener on the caller's signal for the whole call, released at its end (not one for each
  // part of it): a loop's step signal serves several calls at once, and Node warns past ten.
  const link = signal ? linkedSignal(signal) : undefined;
  const tracer = options.tracer ?? ('tools' in client ? client.tracer : undefined);
  try {
    if (tracer) {
      return await traceToolRun(tracer, transport, options, (t, o) => run(t, o, link?.signal, controls));
    }
    return await run(transport, options, link?.signal, controls);
  } finally {
    link?.unlink();
  }
}

async function run<TTool extends AnyTool>(
  transport: ToolTransport,
  options: RunToolOptions<TTool>,
  signal: AbortSignal | undefined,
  controls: CallControls | undefined,
): Promise<ToolRunResult<TTool>> {
  const { sessionId, pending, tool } = options;
  const base: ToolRunBase = { requestId: pending.requestId, name: pending.name };
  const heartbeat = new Heartbeat(transport, {
    sessionId,
    requestId: pending.requestId,
    heartbeatTimeoutMs: options.heartbeatTimeoutMs,
    signal,
    random: options.random,
    onBeatError: options.onHeartbeatError,
    onBeat: options.onHeartbeat,
  }).start();
  const limit = controls?.limit?.signal;
  const handler = limit
    ? linkedSignal(heartbeat.lost, ...(signal ? [signal, limit] : [limit]))
    : signal
      ? linkedSignal(heartbeat.lost, signal)
      : undefined;
  const handlerSignal = handler ? handler.signal : heartbeat.lost;
  const ctx: ToolContext = {
    signal: handlerSignal,
    sessionId,
    requestId: pending.requestId,
    name: pending.name,
    rawInput: pending.input,
    attempt: options.attempt ?? 1,
  };

  let outcome: Outcome | undefined;
  try {
    // The handler may ignore its signal; the race lets the run end when the call is lost anyway.
    const execution = executeTool(tool, pending, ctx, controls?.forCall(ctx));
    outcome = await raceSignal(execution, heartbeat.lost, ...(signal ? [signal] : []));
  } catch {
    // Only the race's signal rejects here: executeTool() never throws.
  }
  if (controls?.approval) base.approval = controls.approval;
  if (controls?.repair) base.repair = controls.repair;
  await heartbeat.stop();
  handler?.unlink();
  if (heartbeat.lostError) return lost(base, heartbeat.lostError);
  if (signal?.aborted || outcome === undefined) throw abortError(signal);

  let settled = outcome.kind === 'complete' ? checkOutputSize(outcome, pending.name, options) : outcome;
  const report = (): Promise<void> => {
    const current = settled;
    return reportWithRetry(
      (requestOptions) =>
        current.kind === 'complete'
          ? transport.respond(sessionId, pending.requestId, current.output, requestOptions)
          : transport.fail(sessionId, pending.requestId, current.message, requestOptions),
      { signal, maxAttempts: options.maxReportAttempts },
    );
  };
  try {
    try {
      await report();
    } catch (error) {
      // A limit lower than assumed: the server's 413 names it, and the model hears of it.
      if (settled.kind !== 'complete' || !isPayloadTooLargeError(error)) throw error;
      const maxBytes = error.details?.maxBytes;
      const tooLarge = toolOutputTooLarge(
        pending.name,
        responseBodyBytes(settled.output),
        typeof maxBytes === 'number' ? maxBytes : undefined,
        error,
      );
      settled = { kind: 'error', message: tooLarge.message, cause: tooLarge };
      await report();
    }
  } catch (error) {
    if (isConflictError(error)) {
      return {
        ...base,
        status: 'ALREADY_SETTLED',
        error: 'The call was already settled (409): the first terminal report wins',
        cause: error,
      };
    }
    if (isNotFoundError(error)) {
      const gone = new ToolCallLostError(
        `Tool call ${pending.requestId} (session ${sessionId}) no longer exists`,
        {
          reason: 'NOT_FOUND',
          sessionId,
          requestId: pending.requestId,
          cause: error,
        },
      );
      return lost(base, gone);
    }
    if (signal?.aborted) throw abortError(signal);
    // Keep the result: the caller can send it again later (an identical repeat is harmless).
    throw new ToolReportError(
      `The result of tool call ${pending.requestId} (session ${sessionId}) could not be reported: ${
        error instanceof Error ? error.message : String(error)
      }`,
      {
        sessionId,
        requestId: pending.requestId,
        report:
          settled.kind === 'complete'
            ? { kind: 'complete', output: settled.output }
            : { kind: 'error', message: settled.message },
        cause: error,
      },
    );
  }
  return settled.kind === 'complete'
    ? { ...base, status: 'COMPLETE', output: settled.output as ToolRunOutput<TTool> }
    : { ...base, status: 'ERROR', error: settled.message, cause: settled.cause };
}

function lost(base: ToolRunBase, error: ToolCallLostError): ToolRunLost {
  return { ...base, status: 'LOST', error: error.message, cause: error };
}

function abortError(signal: AbortSignal | undefined): APIUserAbortError {
  return new APIUserAbortError('Tool run aborted', { cause: signal?.reason });
}
