import { DEFAULT_MAX_BODY_BYTES } from '../../defaults.js';
import { raceSignal } from '../../internal/race-signal.js';
import type { PendingTool } from '../../wire/index.js';
import {
  type AnyTool,
  RESERVED_OUTPUT_FIELD,
  type ToolContext,
  type ToolMiddleware,
} from '../define/define-tool.js';
import { formatIssues, type SchemaIssue, type ToolObject, validateWith } from '../define/tool-schema.js';
import type { RepairResult } from './input-repair.js';
import type { Outcome } from './outcome.js';
import { responseBodyBytes, toolOutputTooLarge } from './output-size.js';
import type { TimeLimit } from './time-limit.js';
import { type InnerOutcome, runMiddleware } from './tool-middleware.js';

export type { Outcome } from './outcome.js';

/** What may stand between the parsed input and the handler, when the call has it. */
export interface ExecuteControls {
  /** Runs once the input is parsed: an outcome here is the call's, and the handler does not run (approval). */
  gate?: ((input: unknown) => Promise<Outcome | undefined>) | undefined;
  /** The handler's time limit: started as it starts; past it, the outcome is its `ToolTimeoutError`. */
  limit?: TimeLimit | undefined;
  /** Around the gate, the limit and the handler: the loop's middleware, then the tool's. */
  middleware?: readonly ToolMiddleware[] | undefined;
  /** Asked for a fixed input when the input fails the schema (`repairToolInput`). */
  repair?: ((issues: readonly SchemaIssue[]) => Promise<RepairResult | undefined>) | undefined;
}

/**
 * Parses the input with the tool's schema, runs the handler and checks its output: never throws,
 * every failure is an ERROR outcome whose message the model reads.
 */
export async function executeTool(
  tool: AnyTool,
  pending: Pick<PendingTool, 'name' | 'input'>,
  ctx: ToolContext,
  controls?: ExecuteControls,
): Promise<Outcome> {
  const parsed = await validateWith(tool.input, pending.input);
  let input: unknown;
  if ('issues' in parsed) {
    const repaired = controls?.repair ? await controls.repair(parsed.issues) : undefined;
    if (repaired && 'refused' in repaired) return repaired.refused;
    if (!repaired) {
      // The model gets the schema library's own issue texts, so it can correct its input.
      return {
        kind: 'error',
        message: `Invalid input for tool "${pending.name}":\n${formatIssues(parsed.issues)}`,
        cause: parsed.issues,
      };
    }
    input = repaired.value;
  } else {
    input = parsed.value;
  }
  const invoke = (value: unknown) => invokeHandler(tool, value, ctx, controls);
  const middleware = controls?.middleware;
  const ran =
    middleware && middleware.length > 0
      ? await runMiddleware(middleware, input, ctx, invoke, (error) => errorMessage(error, pending.name))
      : await invoke(input);
  if (ran.kind === 'error') return ran;
  const raw = ran.value;
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    const got = raw === null ? 'null' : Array.isArray(raw) ? 'an array' : typeof raw;
    return {
      kind: 'error',
      message: `Tool "${pending.name}" returned ${got}; a tool output must be an object`,
      cause: raw,
    };
  }
  let output = raw as ToolObject;
  if (tool.output) {
    const checked = await validateWith(tool.output, raw);
    if ('issues' in checked) {
      return {
        kind: 'error',
        message: `Tool "${pending.name}" returned output that does not match its output schema:\n${formatIssues(checked.issues)}`,
        cause: checked.issues,
      };
    }
    output = checked.value as ToolObject;
  }
  if (Object.hasOwn(output, RESERVED_OUTPUT_FIELD)) {
    return {
      kind: 'error',
      message: `Tool "${pending.name}" returned a "${RESERVED_OUTPUT_FIELD}" field, which the protocol reserves`,
      cause: output,
    };
  }
  return { kind: 'complete', output };
}

/**
 * The innermost step of a run: the gate (approval, asked once per call however often a middleware
 * calls `next`), then the handler under its time limit.
 */
async function invokeHandler(
  tool: AnyTool,
  input: unknown,
  ctx: ToolContext,
  controls: ExecuteControls | undefined,
): Promise<InnerOutcome> {
  if (controls?.gate) {
    const refused = await controls.gate(input);
    if (refused) return refused.kind === 'error' ? refused : { kind: 'returned', value: refused.output };
  }
  const limit = controls?.limit;
  try {
    if (limit) {
      limit.start();
      // The limit does not wait for a handler that ignores its signal.
      return {
        kind: 'returned',
        value: await raceSignal(Promise.resolve(tool.run(input, ctx)), limit.signal),
      };
    }
    return { kind: 'returned', value: await tool.run(input, ctx) };
  } catch (error) {
    return { kind: 'error', message: errorMessage(error, ctx.name), cause: error };
  } finally {
    limit?.clear();
  }
}

/** A complete outcome, or an ERROR when its response body would be over the body limit. */
export function checkOutputSize(
  outcome: Outcome & { kind: 'complete' },
  name: string,
  options: { maxBodyBytes?: number | undefined },
): Outcome {
  const maxBytes = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  let bytes: number;
  try {
    bytes = responseBodyBytes(outcome.output);
  } catch (error) {
    // A bigint or a cycle: no report could carry it, and the model can be told why.
    const reason = error instanceof Error ? error.message : String(error);
    return {
      kind: 'error',
      message: `Tool "${name}" returned output that cannot be sent as JSON: ${reason}`,
      cause: error,
    };
  }
  if (bytes <= maxBytes) return outcome;
  const tooLarge = toolOutputTooLarge(name, bytes, maxBytes);
  return { kind: 'error', message: tooLarge.message, cause: tooLarge };
}

function errorMessage(error: unknown, name: string): string {
  const message = error instanceof Error ? error.message : typeof error === 'string' ? error : '';
  // The server needs a non-empty message, and the model needs something to react to.
  return message.trim() !== '' ? message : `Tool "${name}" failed without a message`;
}
