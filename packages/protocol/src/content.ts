import * as z from 'zod';
import type { JsonObject } from './wire/content.js';

export type { JsonObject };

/** `{ type: 'text', text }`: most user and assistant turns are a single text block. */
export const TextBlockSchema = z.looseObject({
  type: z.literal('text'),
  text: z.string(),
});
export type TextBlock = z.infer<typeof TextBlockSchema>;

/** A JSON object: tool inputs and tool outputs are always objects. */
export const JsonObjectSchema = z.record(z.string(), z.unknown());

/**
 * `{ type: 'tool_use', id, name, input }`: the model asks for a tool. `id` is the toolUseId, which is
 * also the `requestId` on the tool endpoints.
 */
export const ToolUseBlockSchema = z.looseObject({
  type: z.literal('tool_use'),
  id: z.string(),
  name: z.string(),
  input: JsonObjectSchema,
});
export type ToolUseBlock = z.infer<typeof ToolUseBlockSchema>;

/** One part of a tool result: text (errors, plain output) or a JSON value (a tool response). */
export const ToolResultContentSchema = z.union([
  z.looseObject({ type: z.literal('text'), text: z.string() }),
  z.looseObject({ type: z.literal('json'), json: z.unknown() }),
]);
export type ToolResultContent = z.infer<typeof ToolResultContentSchema>;

/**
 * `{ type: 'tool_result', tool_use_id, content, is_error }`: inserted by the server in a user message
 * once a tool call is settled. Clients never author it.
 */
export const ToolResultBlockSchema = z.looseObject({
  type: z.literal('tool_result'),
  tool_use_id: z.string(),
  content: z.array(ToolResultContentSchema),
  is_error: z.boolean(),
});
export type ToolResultBlock = z.infer<typeof ToolResultBlockSchema>;

export const ContentBlockSchema = z.discriminatedUnion('type', [
  TextBlockSchema,
  ToolUseBlockSchema,
  ToolResultBlockSchema,
]);
export type ContentBlock = z.infer<typeof ContentBlockSchema>;

/**
 * How responses read content blocks: the known kinds are validated, and a block of a kind added in a
 * later version passes through unchanged (its `type` is a string) instead of failing the response.
 * The static type stays the known union; check `type` before reading a block's fields.
 */
const KNOWN_BLOCK_TYPES: ReadonlySet<string> = new Set(['text', 'tool_use', 'tool_result']);

export const ResponseContentBlockSchema = z
  .union([
    ContentBlockSchema,
    z.looseObject({
      type: z
        .string()
        .refine((type) => !KNOWN_BLOCK_TYPES.has(type), 'a known block kind with invalid fields'),
    }),
  ])
  .transform((block) => block as ContentBlock);
