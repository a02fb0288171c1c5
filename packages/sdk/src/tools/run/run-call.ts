import {
  APIUserAbortError,
  ConflictError,
  NotFoundError,
  PayloadTooLargeError,
  ToolCallLostError,
  ToolReportError,
} from '../../errors/index.js';
import { linkedSignal } from '../../internal/linked-signal.js';
import type { PendingTool } from '../../wire/index.js';
import type { AnyTool } from '../define/define-tool.js';
import type { CallControls } from './call-controls.js';
import { executeTool } from './execute-tool.js';
import { Heartbeat } from './heartbeat.js';
import { lostMessage } from './heartbeat-messages.js';
import { responseBodyBytes, toolOutputTooLarge } from './output-size.js';
import { reportWithRetry } from './report.js';
import { isLeasedError, leaseHeaders } from './tool-lease.js';
import type { ToolRunBase, ToolRunLost, ToolRunOutput, ToolRunResult } from './tool-run-result.js';
import type { ToolTransport } from './tool-transport.js';

/** One call as `runTool` resolved it from its options and its client. */
export interface CallRun<TTool extends AnyTool = AnyTool> {
  sessionId: string;
  pending: Pick<PendingTool, 'requestId' | 'name' | 'input'>;
  tool: TTool;
  /** The caller's signal, linked for the call's lifetime. */
  signal: AbortSignal | undefined;
  heartbeatTimeoutMs: number | undefined;
  random: (() => number) | undefined;
  onBeat: ((beats: number) => void) | undefined;
  onBeatError: ((error: unknown) => void) | undefined;
  controls: CallControls | undefined;
  maxBodyBytes: number | undefined;
  maxReportAttempts: number | undefined;
  /** The handler's `ctx.attempt`. */
  attempt: number;
  /** The lease extension's token: beats and reports carry it. */
  leaseToken?: string | undefined;
  /**
   * The call's heartbeat, already started by whoever accepted the call (the tool loop beats every
   * call of a reply from its arrival, queued ones too). Without it one is started here.
   */
  heartbeat?: Heartbeat | undefined;
  /** The server leased the call to `leaseToken` no later than this: see `HeartbeatOptions.heldSince`. */
  heldSince?: number | undefined;
  /** Start the handler only once the first beat holds the call (a claim that may lose). */
  awaitClaim?: boolean | undefined;
}

/**
 * One call's life, from its first heartbeat to its terminal report: the heartbeat starts at once,
 * beside `executeTool`; it is stopped, and its beat in flight awaited, before the output or the
 * ERROR is reported, with retries. A call lost meanwhile is `LOST` and nothing is reported.
 */
export async function runCall<TTool extends AnyTool>(
  transport: ToolTransport,
  call: CallRun<TTool>,
): Promise<ToolRunResult<TTool>> {
  const { sessionId, pending, tool, signal, leaseToken } = call;
  const heartbeat =
    call.heartbeat ??
    new Heartbeat(transport, {
      sessionId,
      requestId: pending.requestId,
      heartbeatTimeoutMs: call.heartbeatTimeoutMs,
      signal,
      random: call.random,
      onBeatError: call.onBeatError,
      onBeat: call.onBeat,
      leaseToken,
      heldSince: call.heldSince,
    }).start();
  call.heartbeat?.listen(call.onBeat, call.onBeatError);
  const base: ToolRunBase = { requestId: pending.requestId, name: pending.name };
  // With a lease token the call is run once it is held: a claim another worker won never runs here.
  if (call.awaitClaim) {
    const claim = await heartbeat.claimed;
    if (!claim.held) {
      await heartbeat.stop();
      if (heartbeat.lostError) return lost(base, heartbeat.lostError);
      throw abortError(signal);
    }
  }
  // The call ends when it is lost or the caller aborts, even when its handler ignores its signal.
  const stop = signal ? linkedSignal(heartbeat.lost, signal) : undefined;
  const { outcome, approval, repair } = await executeTool({
    sessionId,
    pending,
    tool,
    stop: stop?.signal ?? heartbeat.lost,
    controls: call.controls,
    maxBodyBytes: call.maxBodyBytes,
    heartbeatIntervalMs: heartbeat.intervalMs,
    attempt: heartbeat.lease?.attempt ?? call.attempt,
  });
  if (approval) base.approval = approval;
  if (repair) base.repair = repair;
  await heartbeat.stop();
  stop?.unlink();
  if (heartbeat.lostError) return lost(base, heartbeat.lostError);
  if (signal?.aborted || outcome.kind === 'stopped') throw abortError(signal);

  let settled = outcome;
  const withLease = leaseHeaders(leaseToken);
  const report = (): Promise<void> => {
    const current = settled;
    return reportWithRetry(
      (sent) => {
        const requestOptions = withLease ? { ...sent, ...withLease } : sent;
        return current.kind === 'complete'
          ? transport.respond(sessionId, pending.requestId, current.output, requestOptions)
          : transport.fail(sessionId, pending.requestId, current.message, requestOptions);
      },
      { signal, maxAttempts: call.maxReportAttempts },
    );
  };
  try {
    try {
      await report();
    } catch (error) {
      // A limit lower than assumed: the server's 413 names it, and the model hears of it.
      if (settled.kind !== 'complete' || !(error instanceof PayloadTooLargeError)) throw error;
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
    if (isLeasedError(error)) {
      const taken = new ToolCallLostError(
        lostMessage('LEASED', sessionId, pending.requestId, heartbeat.localTimeoutMs),
        { reason: 'LEASED', sessionId, requestId: pending.requestId, cause: error },
      );
      return lost(base, taken);
    }
    if (error instanceof ConflictError) {
      return {
        ...base,
        status: 'ALREADY_SETTLED',
        error: 'The call was already settled (409): the first terminal report wins',
        cause: error,
      };
    }
    if (error instanceof NotFoundError) {
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
