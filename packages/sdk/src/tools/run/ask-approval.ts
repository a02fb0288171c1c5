import { ToolApprovalTimeoutError } from '../../errors/tool-approval-timeout-error.js';
import { linkedSignal } from '../../internal/linked-signal.js';
import { raceSignal } from '../../internal/race-signal.js';
import { thrownText } from '../../internal/thrown-text.js';
import type { AnyTool, ToolContext } from '../define/define-tool.js';
import type { ToolApproval, ToolApprovalAnswer, ToolApprover } from './tool-approval.js';

export interface AskApprovalOptions {
  tool: AnyTool;
  /** The input as the tool's schema parsed it. */
  input: unknown;
  /** The call's context: its signal ends the wait when the call is lost or the run aborted. */
  ctx: ToolContext;
  approve: ToolApprover;
  /** How long to wait for the answer; `undefined`: until the call is lost or the run aborted. */
  waitMs: number | undefined;
}

/** Why a call may not run: the message the model reads, and what caused it. */
export interface Refusal {
  message: string;
  cause: unknown;
}

/** What asking came to: the record (when the tool needed approval) and the ERROR when it may not run. */
export interface ApprovalResult {
  approval?: ToolApproval;
  refused?: Refusal;
}

/**
 * Asks whether a call may run, when its tool needs approval (`needsApproval`: `true`, or a
 * predicate that says so for this input). Never throws: a denial, a wait past `waitMs`, or an
 * `approve` that fails becomes the ERROR the model reads, with the record of what happened.
 */
export async function askApproval(options: AskApprovalOptions): Promise<ApprovalResult> {
  const { tool, input, ctx } = options;
  const { sessionId, requestId, name, rawInput } = ctx;
  const record = (outcome: ToolApproval['outcome'], extra: Partial<ToolApproval> = {}): ToolApproval => ({
    requestId,
    name,
    input: rawInput,
    outcome,
    ...extra,
  });
  const refuse = (approval: ToolApproval, message: string, cause?: unknown): ApprovalResult => ({
    approval,
    refused: { message: `Tool "${name}" was not run: ${message}`, cause },
  });
  const needs = tool.needsApproval;
  if (typeof needs === 'function') {
    try {
      if (!(await needs(input, { sessionId, requestId, name, rawInput }))) return {};
    } catch (error) {
      const reason = `its needsApproval check failed: ${thrownText(error)}`;
      return refuse(record('failed', { reason }), reason, error);
    }
  } else if (needs !== true) {
    return {};
  }

  // The request's own signal: the call's (lost, aborted), and the end of the wait.
  const expiry = new AbortController();
  const request = linkedSignal(ctx.signal, expiry.signal);
  const { waitMs } = options;
  const timer =
    waitMs === undefined
      ? undefined
      : setTimeout(
          () =>
            expiry.abort(
              new ToolApprovalTimeoutError({ sessionId, requestId, toolName: name, waitedMs: waitMs }),
            ),
          waitMs,
        );
  try {
    const answer: unknown = await raceSignal(
      Promise.resolve().then(() =>
        options.approve({
          sessionId,
          requestId,
          name,
          input,
          rawInput,
          tool,
          signal: request.signal,
          expiresAt: waitMs === undefined ? undefined : Date.now() + waitMs,
        }),
      ),
      request.signal,
    );
    return read(answer, record, refuse);
  } catch (error) {
    const ended = request.signal.reason;
    if (!ctx.signal.aborted && ended instanceof ToolApprovalTimeoutError) {
      // The model reads the error's own words: `Tool "x" was not run: no one approved ...`.
      return {
        approval: record('timed_out', { reason: ended.message }),
        refused: { message: ended.message, cause: ended },
      };
    }
    if (ctx.signal.aborted) {
      // The call is lost or the run aborted: runTool ends on that already; nothing is reported.
      return {
        refused: { message: 'the call ended while its approval was awaited', cause: error },
      };
    }
    const reason = `asking for approval failed: ${thrownText(error)}`;
    return refuse(record('failed', { reason }), reason, error);
  } finally {
    clearTimeout(timer);
    request.unlink();
  }
}

function read(
  answer: unknown,
  record: (outcome: ToolApproval['outcome'], extra?: Partial<ToolApproval>) => ToolApproval,
  refuse: (approval: ToolApproval, message: string, cause?: unknown) => ApprovalResult,
): ApprovalResult {
  const { approved, reason, by } = (typeof answer === 'object' && answer !== null ? answer : {}) as Partial<
    Record<keyof ToolApprovalAnswer | 'reason', unknown>
  >;
  const who = typeof by === 'string' ? { by } : {};
  if (approved === true) return { approval: record('approved', who) };
  if (approved === false) {
    const why = typeof reason === 'string' && reason.trim() !== '' ? reason : 'no reason given';
    return refuse(record('denied', { ...who, reason: why }), `approval was denied: ${why}`, answer);
  }
  const problem = `approve answered ${describeAnswer(answer)}, not { approved: true } or { approved: false, reason }`;
  return refuse(record('failed', { reason: problem }), problem, answer);
}

function describeAnswer(answer: unknown): string {
  if (answer === undefined) return 'undefined';
  try {
    return JSON.stringify(answer) ?? String(answer);
  } catch {
    return String(answer);
  }
}
