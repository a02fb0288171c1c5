import * as z from 'zod';

export type { ToolDefinition } from './wire/customizations.js';

/** Tool names: 1 to 64 letters, digits, `_` or `-` (what model providers accept). */
export const TOOL_NAME_PATTERN = /^[a-zA-Z0-9_-]{1,64}$/;
export const ToolNameSchema = z
  .string()
  .regex(TOOL_NAME_PATTERN, 'tool names are 1 to 64 characters of letters, digits, "_" or "-"');

/** A JSON Schema object describing a tool's input or output. */
export const JsonSchemaObjectSchema = z.looseObject({}).refine((s) => !Array.isArray(s), 'must be an object');

/**
 * A client-supplied tool. `name` equals its key under `extensions.tools`; `requestArgs` is a JSON
 * Schema whose `type` is `"object"`; `responseShape` is optional.
 */
export const ToolDefinitionSchema = z.strictObject({
  name: ToolNameSchema,
  description: z.string().min(1).max(4096),
  requestArgs: z.looseObject({ type: z.literal('object') }),
  responseShape: JsonSchemaObjectSchema.optional(),
});
/** At most this many client tools per session. */
export const MAX_TOOLS_PER_SESSION = 64;
