import { ToolApprovalTimeoutError } from '../../errors/tool-approval-timeout-error.js';
import type { ToolExecutionError, ToolExecutionFailure } from '../../errors/tool-execution-error.js';
import { raceSignal } from '../../internal/race-signal.js';
import { thrownText } from '../../internal/thrown-text.js';
import type { AnyTool, ToolContext } from '../define/define-tool.js';
import type { ToolObject } from '../define/tool-schema.js';
import { checkValue } from './check-value.js';
import type { ToolApproval, ToolApprover } from './tool-approval.js';
import { type CallState, stageFailure } from './tool-pipeline.js';

export interface AskApprovalOptions {
  tool: AnyTool;
  /** The input that reached the approval: what runs if approved. */
  input: unknown;
  /** The call's context: its signal ends the wait (the deadline, a lost call, an abort). */
  ctx: ToolContext;
  approve: ToolApprover;
  /** When the call's deadline ends the wait, in `Date.now()` ms; undefined when unknown. */
  expiresAt: number | undefined;
  /** Where the deadline finds the wait to end. */
  state: CallState;
}

/** What asking came to: no approval needed, run an input, respond without running, or refuse. */
export type Decision =
  | { kind: 'none' }
  | { kind: 'run'; input: unknown; approval: ToolApproval }
  | { kind: 'respond'; output: ToolObject; approval: ToolApproval }
  /** No record when the call ended (lost, aborted) while the answer was awaited. */
  | { kind: 'refuse'; error: ToolExecutionError; approval?: ToolApproval };

type Refuse = (
  failure: ToolExecutionFailure,
  approval: ToolApproval,
  cause: unknown,
  message?: string,
) => Decision;

const NONE: Decision = { kind: 'none' };
const EXPECTED = 'not { approved: true, input? }, { approved: false, reason } or { respond: output }';

/**
 * Asks whether a call may run, when its tool needs approval (`needsApproval`: `true`, or a
 * predicate that says so for this input). Never throws: a denial, the deadline, or an `approve`
 * that fails is a refusal whose error the model reads, with the record of what happened.
 */
export async function askApproval(options: AskApprovalOptions): Promise<Decision> {
  const { tool, input, ctx, state } = options;
  const { sessionId, requestId, name, rawInput } = ctx;
  const record = (outcome: ToolApproval['outcome'], extra: Partial<ToolApproval> = {}): ToolApproval => ({
    requestId,
    name,
    input: input as ToolObject,
    outcome,
    ...extra,
  });
  /** A refusal: the model reads `message`, by default the record's reason after `Tool "x" was not run: `. */
  const refuse: Refuse = (
    failure,
    approval,
    cause,
    message = `Tool "${name}" was not run: ${approval.reason}`,
  ) => ({
    kind: 'refuse',
    approval,
    error: stageFailure(ctx, failure, message, cause),
  });
  const needs = tool.needsApproval;
  if (typeof needs === 'function') {
    try {
      if (!(await needs(input, { sessionId, requestId, name, rawInput }))) return NONE;
    } catch (error) {
      const reason = `its needsApproval check failed: ${thrownText(error)}`;
      return refuse('APPROVAL_FAILED', record('failed', { reason }), error);
    }
  } else if (needs !== true) {
    return NONE;
  }

  const askedAt = Date.now();
  let expired: { error: ToolApprovalTimeoutError; approval: ToolApproval } | undefined;
  // Called by the call's deadline before it aborts the signal the wait races: the record is there
  // as the call ends, before the wait's own rejection is handled.
  state.expireApproval = () => {
    const error = new ToolApprovalTimeoutError({
      sessionId,
      requestId,
      toolName: name,
      waitedMs: Date.now() - askedAt,
    });
    expired = { error, approval: record('timed_out', { reason: error.message }) };
    state.approval = expired.approval;
    return error;
  };
  let answer: unknown;
  try {
    answer = await raceSignal(
      // A call that ended while needsApproval was asked about asks no one.
      Promise.resolve().then(() => {
        ctx.signal.throwIfAborted();
        return options.approve({
          sessionId,
          requestId,
          name,
          input,
          rawInput,
          tool,
          signal: ctx.signal,
          expiresAt: options.expiresAt,
        });
      }),
      ctx.signal,
    );
  } catch (error) {
    // The model reads the error's own words: `Tool "x" was not run: no one approved ...`.
    if (expired) return refuse('APPROVAL_TIMED_OUT', expired.approval, expired.error, expired.error.message);
    if (ctx.signal.aborted) {
      // The call is lost or the run aborted: the call ends on that already; nothing is reported.
      return {
        kind: 'refuse',
        error: stageFailure(ctx, 'APPROVAL_FAILED', 'the call ended while its approval was awaited', error),
      };
    }
    const reason = `asking for approval failed: ${thrownText(error)}`;
    return refuse('APPROVAL_FAILED', record('failed', { reason }), error);
  } finally {
    state.expireApproval = undefined;
  }
  return read(answer, options, record, refuse);
}

/** The decision an answer makes: run (as asked, or edited), respond, deny, or fail as malformed. */
async function read(
  answer: unknown,
  { tool, input, ctx }: AskApprovalOptions,
  record: (outcome: ToolApproval['outcome'], extra?: Partial<ToolApproval>) => ToolApproval,
  refuse: Refuse,
): Promise<Decision> {
  const given = (isObject(answer) ? answer : {}) as Partial<
    Record<'approved' | 'reason' | 'by' | 'input' | 'respond', unknown>
  >;
  const who = typeof given.by === 'string' ? { by: given.by } : {};
  const edited = given.input;
  if (given.approved === true && given.respond === undefined && (edited === undefined || isObject(edited))) {
    if (edited === undefined || sameValue(edited, input)) {
      return { kind: 'run', input, approval: record('approved', who) };
    }
    const editedInput = edited as ToolObject;
    const checked = await checkValue(tool.input, editedInput, 'input', ctx.name, ' (as approve edited it)');
    if ('value' in checked) {
      return { kind: 'run', input: checked.value, approval: record('edited', { ...who, editedInput }) };
    }
    const { message, cause } = checked.failed;
    return refuse(
      'APPROVAL_FAILED',
      record('failed', { ...who, editedInput, reason: message }),
      cause,
      message,
    );
  }
  if (given.approved === false && given.respond === undefined) {
    const { reason } = given;
    const why = typeof reason === 'string' && reason.trim() !== '' ? reason : 'no reason given';
    const denied = record('denied', { ...who, reason: why });
    return refuse(
      'APPROVAL_DENIED',
      denied,
      answer,
      `Tool "${ctx.name}" was not run: approval was denied: ${why}`,
    );
  }
  if (given.approved === undefined && isObject(given.respond)) {
    return { kind: 'respond', output: given.respond as ToolObject, approval: record('responded', who) };
  }
  const reason = `approve answered ${describeAnswer(answer)}, ${EXPECTED}`;
  return refuse('APPROVAL_FAILED', record('failed', { reason }), answer);
}

function isObject(value: unknown): value is object {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Whether two inputs are the same as data: primitives, plain objects and arrays by their contents,
 * any other object (a date, a map) by identity, so that a changed one never passes for the same.
 */
export function sameValue(a: unknown, b: unknown): boolean {
  if (Object.is(a, b)) return true;
  if (!a || !b || typeof a !== 'object' || typeof b !== 'object') return false;
  const proto = Object.getPrototypeOf(a);
  if (proto !== Object.getPrototypeOf(b) || (proto !== Object.prototype && proto !== Array.prototype))
    return false;
  const [x, y] = [a as Record<string, unknown>, b as Record<string, unknown>];
  const keys = Object.keys(x);
  return (
    keys.length === Object.keys(y).length && keys.every((k) => Object.hasOwn(y, k) && sameValue(x[k], y[k]))
  );
}

function describeAnswer(answer: unknown): string {
  if (answer === undefined) return 'undefined';
  try {
    return JSON.stringify(answer) ?? String(answer);
  } catch {
    return String(answer);
  }
}
