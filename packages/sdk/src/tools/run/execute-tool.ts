import { DEFAULT_MAX_BODY_BYTES } from '../../defaults.js';
import { linkedSignal } from '../../internal/linked-signal.js';
import { raceSignal } from '../../internal/race-signal.js';
import { thrownText } from '../../internal/thrown-text.js';
import type { PendingTool } from '../../wire/index.js';
import { type AnyTool, RESERVED_OUTPUT_FIELD, type ToolContext } from '../define/define-tool.js';
import {
  formatIssues,
  type SchemaIssue,
  type ToolObject,
  type ToolSchema,
  validateWith,
} from '../define/tool-schema.js';
import { askApproval } from './ask-approval.js';
import type { CallControls } from './call-controls.js';
import { repairInput, type ToolInputRepair } from './input-repair.js';
import { responseBodyBytes, toolOutputTooLarge } from './output-size.js';
import { TimeLimit } from './time-limit.js';
import type { ToolApproval } from './tool-approval.js';
import { type InnerOutcome, runMiddleware } from './tool-middleware.js';

/**
 * What running a call came to, before anything is reported: an output to send, an ERROR for the
 * model, or `stopped` (the call was lost or the run aborted: nothing is to be reported).
 */
export type Outcome =
  | { kind: 'complete'; output: ToolObject }
  | { kind: 'error'; message: string; cause: unknown }
  | { kind: 'stopped' };

/** The outcome, the record of the approval when the call needed one, and of a repaired input. */
export interface Execution {
  outcome: Outcome;
  approval?: ToolApproval | undefined;
  repair?: ToolInputRepair | undefined;
}

export interface ExecuteToolOptions {
  sessionId: string;
  pending: Pick<PendingTool, 'requestId' | 'name' | 'input'>;
  tool: AnyTool;
  /**
   * Aborted when the call is lost or the run is aborted: the handler's `ctx.signal` aborts with
   * it, and the execution ends at once as `stopped`, even when the handler ignores its signal.
   */
  stop: AbortSignal;
  /** The approval and the time limit, when the call has them. */
  controls?: CallControls | undefined;
  /** The server's request body limit; default `defaults.tools.maxBodyBytes`. */
  maxBodyBytes?: number | undefined;
  /**
   * The call's heartbeat interval: an approval wait ends this long before the call's deadline (the
   * time each beat is given to reach the server), so that the ERROR report lands before the
   * deadline abandons the call.
   */
  heartbeatIntervalMs: number;
  /** The handler's `ctx.attempt` (default 1). */
  attempt?: number | undefined;
}

const STOPPED: Outcome = { kind: 'stopped' };

/**
 * Parses the input with the tool's schema, asks for approval when the tool needs it, runs the
 * handler (within its time limit) and checks its output (schema, shape, size). Never throws: every
 * failure of what the tool's author or the caller supplied (a schema that throws or rejects, a
 * handler, a `needsApproval` predicate, an `approve` callback) is an ERROR outcome whose message
 * the model reads.
 */
export async function executeTool(options: ExecuteToolOptions): Promise<Execution> {
  const { stop, controls, tool } = options;
  // The limit ends before the call's deadline (less one beat interval, for the report to land).
  const endBy =
    controls?.deadline === undefined ? undefined : controls.deadline - options.heartbeatIntervalMs;
  const limit =
    controls?.timeoutMs === undefined ? undefined : new TimeLimit(tool.name, controls.timeoutMs, endBy);
  const handler = limit ? linkedSignal(stop, limit.signal) : undefined;
  const execution: Execution = { outcome: STOPPED };
  const running = outcomeOf(options, handler?.signal ?? stop, limit, execution);
  try {
    execution.outcome = await raceSignal(running, stop);
  } catch (error) {
    // The race rejects when `stop` aborts; `outcomeOf` itself turns every failure into an outcome.
    if (!stop.aborted) execution.outcome = { kind: 'error', message: thrownText(error), cause: error };
  } finally {
    limit?.clear();
    handler?.unlink();
  }
  return execution;
}

async function outcomeOf(
  options: ExecuteToolOptions,
  signal: AbortSignal,
  limit: TimeLimit | undefined,
  execution: Execution,
): Promise<Outcome> {
  const { tool, pending, controls } = options;
  const { name } = pending;
  const ctx: ToolContext = {
    signal,
    sessionId: options.sessionId,
    requestId: pending.requestId,
    name,
    rawInput: pending.input,
    attempt: options.attempt ?? 1,
  };
  const checked = await check(tool.input, pending.input, 'input', name);
  let input: unknown;
  if ('value' in checked) {
    input = checked.value;
  } else {
    const repairer = controls?.repairToolInput;
    if (!repairer || checked.issues === undefined) return checked.outcome;
    const { requestId, rawInput } = ctx;
    const fixed = await repairInput(
      repairer,
      tool,
      { sessionId: ctx.sessionId, requestId, name, rawInput },
      checked.issues,
    );
    if (fixed === undefined) return checked.outcome;
    if ('refused' in fixed) return fixed.refused;
    execution.repair = fixed.repair;
    input = fixed.value;
  }
  // The approval, then the handler within its time limit: what the middleware wraps. The approval
  // is asked once per call, however often a middleware calls `next` (a retry).
  let approved: Promise<Outcome | undefined> | undefined;
  const approval = async (value: unknown): Promise<Outcome | undefined> => {
    if (!controls?.approve) return undefined;
    const { deadline } = controls;
    const waitMs =
      deadline === undefined ? undefined : Math.max(0, deadline - options.heartbeatIntervalMs - Date.now());
    const asked = await askApproval({ tool, input: value, ctx, approve: controls.approve, waitMs });
    execution.approval = asked.approval;
    return asked.refused ? { kind: 'error', ...asked.refused } : undefined;
  };
  const invoke = async (value: unknown): Promise<InnerOutcome> => {
    approved ??= approval(value);
    const refused = await approved;
    if (refused?.kind === 'error') return refused;
    try {
      if (limit) {
        limit.start();
        // The limit does not wait for a handler that ignores its signal.
        return {
          kind: 'returned',
          value: await raceSignal(Promise.resolve(tool.run(value, ctx)), limit.signal),
        };
      }
      return { kind: 'returned', value: await tool.run(value, ctx) };
    } catch (error) {
      return { kind: 'error', message: handlerMessage(error, name), cause: error };
    } finally {
      limit?.clear();
    }
  };
  const middleware = controls?.middleware;
  const ran =
    middleware && middleware.length > 0
      ? await runMiddleware(middleware, input, ctx, invoke, (error) => handlerMessage(error, name))
      : await invoke(input);
  if (ran.kind === 'error') return ran;
  const raw = ran.value;
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    const got = raw === null ? 'null' : Array.isArray(raw) ? 'an array' : typeof raw;
    return {
      kind: 'error',
      message: `Tool "${name}" returned ${got}; a tool output must be an object`,
      cause: raw,
    };
  }
  let output = raw as ToolObject;
  if (tool.output) {
    const checked = await check(tool.output, raw, 'output', name);
    if ('outcome' in checked) return checked.outcome;
    output = checked.value as ToolObject;
  }
  if (Object.hasOwn(output, RESERVED_OUTPUT_FIELD)) {
    return {
      kind: 'error',
      message: `Tool "${name}" returned a "${RESERVED_OUTPUT_FIELD}" field, which the protocol reserves`,
      cause: output,
    };
  }
  return sized(output, name, options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES);
}

/**
 * Checks a value with one of the tool's schemas: its parsed value, or the ERROR the model reads
 * (the library's own issue texts, so it can correct its input; or what the schema threw).
 */
async function check(
  schema: ToolSchema,
  value: unknown,
  side: 'input' | 'output',
  name: string,
): Promise<{ value: unknown } | { outcome: Outcome; issues?: readonly SchemaIssue[] }> {
  let result: Awaited<ReturnType<typeof validateWith>>;
  try {
    result = await validateWith(schema, value);
  } catch (error) {
    const message = `Tool "${name}" could not check its ${side}: its ${side} schema threw: ${thrownText(error)}`;
    return { outcome: { kind: 'error', message, cause: error } };
  }
  if ('value' in result) return result;
  const message =
    side === 'input'
      ? `Invalid input for tool "${name}":\n${formatIssues(result.issues)}`
      : `Tool "${name}" returned output that does not match its output schema:\n${formatIssues(result.issues)}`;
  return { outcome: { kind: 'error', message, cause: result.issues }, issues: result.issues };
}

/** A complete outcome, or an ERROR when its response body would be over the body limit. */
function sized(output: ToolObject, name: string, maxBytes: number): Outcome {
  let bytes: number;
  try {
    bytes = responseBodyBytes(output);
  } catch (error) {
    // A bigint or a cycle: no report could carry it, and the model can be told why.
    return {
      kind: 'error',
      message: `Tool "${name}" returned output that cannot be sent as JSON: ${thrownText(error)}`,
      cause: error,
    };
  }
  if (bytes <= maxBytes) return { kind: 'complete', output };
  const tooLarge = toolOutputTooLarge(name, bytes, maxBytes);
  return { kind: 'error', message: tooLarge.message, cause: tooLarge };
}

function handlerMessage(error: unknown, name: string): string {
  const message = error instanceof Error ? error.message : typeof error === 'string' ? error : '';
  // The server needs a non-empty message, and the model needs something to react to.
  return message.trim() !== '' ? message : `Tool "${name}" failed without a message`;
}
