import { thrownText } from '../../internal/thrown-text.js';
import type { AnyTool, ToolApprovalCall } from '../define/define-tool.js';
import type { SchemaIssue, ToolObject } from '../define/tool-schema.js';
import type { CheckFailure } from './check-value.js';

/** What `repairToolInput` is asked about: a call whose input failed the tool's input schema. */
export interface ToolInputRepairRequest {
  /** The call: `sessionId`, `requestId`, `name`, and `rawInput` (the input as the model sent it). */
  call: ToolApprovalCall;
  tool: AnyTool;
  /** The input as the model sent it (the same as `call.rawInput`). */
  input: ToolObject;
  /** What the schema library said was wrong. */
  issues: readonly SchemaIssue[];
}

/**
 * Fixes a tool input that failed its schema: return the input to run the tool with (it is checked
 * by the schema again), or nothing to send the model the schema's error as without a repairer. A
 * repairer that throws sends the model an ERROR with what it threw.
 */
export type ToolInputRepairer = (
  request: ToolInputRepairRequest,
) => ToolObject | undefined | Promise<ToolObject | undefined>;

/** The record of one repaired input: the step lists them in `repairs`. */
export interface ToolInputRepair {
  requestId: string;
  name: string;
  /** The input as the model sent it. */
  input: ToolObject;
  /** The input the tool ran with, as the repairer returned it. */
  repairedInput: ToolObject;
}

/**
 * Asks `repair` about an input that failed the schema with `issues`: the fixed input (not checked
 * yet), undefined when it has no fix (the caller sends the schema's error as usual), or why it
 * failed.
 */
export async function repairInput(
  repair: ToolInputRepairer,
  tool: AnyTool,
  call: ToolApprovalCall,
  issues: readonly SchemaIssue[],
): Promise<{ fixed: ToolObject } | { refused: CheckFailure } | undefined> {
  const { name, rawInput } = call;
  let fixed: unknown;
  try {
    fixed = await repair({ call, tool, input: rawInput, issues });
  } catch (error) {
    const message = `Invalid input for tool "${name}", and repairToolInput failed: ${thrownText(error)}`;
    return { refused: { message, cause: error } };
  }
  if (fixed === undefined) return undefined;
  if (typeof fixed !== 'object' || fixed === null || Array.isArray(fixed)) {
    const got = fixed === null ? 'null' : Array.isArray(fixed) ? 'an array' : typeof fixed;
    const message = `Invalid input for tool "${name}", and repairToolInput returned ${got}, not an input object`;
    return { refused: { message, cause: fixed } };
  }
  return { fixed: fixed as ToolObject };
}
