import { thrownText } from '../../internal/thrown-text.js';
import { formatIssues, type SchemaIssue, type ToolSchema, validateWith } from '../define/tool-schema.js';

/** A value that failed a check: the words the model reads, what caused it, and the schema's issues. */
export interface CheckFailure {
  message: string;
  cause: unknown;
  /** The schema library's issues, when it found some (not when the schema threw). */
  issues?: readonly SchemaIssue[];
}

/**
 * Checks a value with one of a tool's schemas: its parsed value, or what the model reads (the
 * library's own issue texts, so it can correct its input; or what the schema threw). `which` says
 * which input it was when not the model's (` (also after repairToolInput)`).
 */
export async function checkValue(
  schema: ToolSchema,
  value: unknown,
  side: 'input' | 'output',
  name: string,
  which = '',
): Promise<{ value: unknown } | { failed: CheckFailure }> {
  let result: Awaited<ReturnType<typeof validateWith>>;
  try {
    result = await validateWith(schema, value);
  } catch (error) {
    const message = `Tool "${name}" could not check its ${side}${which}: its ${side} schema threw: ${thrownText(error)}`;
    return { failed: { message, cause: error } };
  }
  if ('value' in result) return result;
  const { issues } = result;
  const message =
    side === 'input'
      ? `Invalid input for tool "${name}"${which}:\n${formatIssues(issues)}`
      : `Tool "${name}" returned output that does not match its output schema:\n${formatIssues(issues)}`;
  return { failed: { message, cause: issues, issues } };
}
