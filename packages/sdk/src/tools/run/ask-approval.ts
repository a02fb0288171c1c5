import { ToolApprovalTimeoutError } from '../../errors/tool-approval-timeout-error.js';
import type { ToolExecutionError, ToolExecutionFailure } from '../../errors/tool-execution-error.js';
import { raceSignal } from '../../internal/race-signal.js';
import { thrownText } from '../../internal/thrown-text.js';
import type { AnyTool, ToolContext } from '../define/define-tool.js';
import { formatIssues, type ToolObject, validateWith } from '../define/tool-schema.js';
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
  const refuse = (
    reason: ToolExecutionFailure,
    approval: ToolApproval,
    message: string,
    cause?: unknown,
  ): Decision => ({
    kind: 'refuse',
    approval,
    error: stageFailure(ctx, reason, `Tool "${name}" was not run: ${message}`, cause),
  });
  const needs = tool.needsApproval;
  if (typeof needs === 'function') {
    try {
      if (!(await needs(input, { sessionId, requestId, name, rawInput }))) return NONE;
    } catch (error) {
      const why = `its needsApproval check failed: ${thrownText(error)}`;
      return refuse('APPROVAL_FAILED', record('failed', { reason: why }), why, error);
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
      Promise.resolve().then(() =>
        options.approve({
          sessionId,
          requestId,
          name,
          input,
          rawInput,
          tool,
          signal: ctx.signal,
          expiresAt: options.expiresAt,
        }),
      ),
      ctx.signal,
    );
  } catch (error) {
    if (expired) {
      // The model reads the error's own words: `Tool "x" was not run: no one approved ...`.
      const { error: ended, approval } = expired;
      return {
        kind: 'refuse',
        approval,
        error: stageFailure(ctx, 'APPROVAL_TIMED_OUT', ended.message, ended),
      };
    }
    if (ctx.signal.aborted) {
      // The call is lost or the run aborted: the call ends on that already; nothing is reported.
      return {
        kind: 'refuse',
        error: stageFailure(ctx, 'APPROVAL_FAILED', 'the call ended while its approval was awaited', error),
      };
    }
    const why = `asking for approval failed: ${thrownText(error)}`;
    return refuse('APPROVAL_FAILED', record('failed', { reason: why }), why, error);
  } finally {
    state.expireApproval = undefined;
  }
  return read(answer, options, record, refuse);
}

/** The decision an answer makes: run (as asked, or edited), respond, deny, or fail as malformed. */
async function read(
  answer: unknown,
  { tool, input }: AskApprovalOptions,
  record: (outcome: ToolApproval['outcome'], extra?: Partial<ToolApproval>) => ToolApproval,
  refuse: (
    reason: ToolExecutionFailure,
    approval: ToolApproval,
    message: string,
    cause?: unknown,
  ) => Decision,
): Promise<Decision> {
  const given = (isObject(answer) ? answer : {}) as Partial<
    Record<'approved' | 'reason' | 'by' | 'input' | 'respond', unknown>
  >;
  const who = typeof given.by === 'string' ? { by: given.by } : {};
  const edited = given.input;
  if (given.approved === true && given.respond === undefined && (edited === undefined || isObject(edited))) {
    if (edited === undefined || sameValue(edited, input))
      return { kind: 'run', input, approval: record('approved', who) };
    const editedInput = edited as ToolObject;
    let checked: Awaited<ReturnType<typeof validateWith>>;
    try {
      checked = await validateWith(tool.input, editedInput);
    } catch (error) {
      const why = `its input schema threw on the input approve gave: ${thrownText(error)}`;
      return refuse('APPROVAL_FAILED', record('failed', { ...who, editedInput, reason: why }), why, error);
    }
    if ('issues' in checked) {
      const why = `the input approve gave does not match its input schema:\n${formatIssues(checked.issues)}`;
      return refuse(
        'APPROVAL_FAILED',
        record('failed', { ...who, editedInput, reason: why }),
        why,
        checked.issues,
      );
    }
    return { kind: 'run', input: checked.value, approval: record('edited', { ...who, editedInput }) };
  }
  if (given.approved === false && given.respond === undefined) {
    const { reason } = given;
    const why = typeof reason === 'string' && reason.trim() !== '' ? reason : 'no reason given';
    return refuse(
      'APPROVAL_DENIED',
      record('denied', { ...who, reason: why }),
      `approval was denied: ${why}`,
      answer,
    );
  }
  if (given.approved === undefined && isObject(given.respond)) {
    return { kind: 'respond', output: given.respond as ToolObject, approval: record('responded', who) };
  }
  const problem = `approve answered ${describeAnswer(answer)}, ${EXPECTED}`;
  return refuse('APPROVAL_FAILED', record('failed', { reason: problem }), problem, answer);
}

function isObject(value: unknown): value is object {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Whether two inputs are the same as data: primitives, arrays, plain objects and dates by their
 * contents, any other object by identity.
 */
export function sameValue(a: unknown, b: unknown): boolean {
  if (Object.is(a, b)) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) || Array.isArray(b)) {
    return (
      Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((v, i) => sameValue(v, b[i]))
    );
  }
  if (a instanceof Date || b instanceof Date) {
    return a instanceof Date && b instanceof Date && a.getTime() === b.getTime();
  }
  const proto = Object.getPrototypeOf(a);
  if ((proto !== Object.prototype && proto !== null) || Object.getPrototypeOf(b) !== proto) return false;
  const keys = Object.keys(a);
  const other = b as Record<string, unknown>;
  return (
    keys.length === Object.keys(b).length &&
    keys.every(
      (key) => Object.hasOwn(other, key) && sameValue((a as Record<string, unknown>)[key], other[key]),
    )
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
