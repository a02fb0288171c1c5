// The content blocks of a message, as a client reads them (`@parley/protocol/wire`: plain types, no
// schema library). The schemas in ../content.ts and ../send-message.ts are checked against them
// (test/wire-types.test-d.ts).

/** A JSON object: tool inputs and tool outputs are always objects. */
export type JsonObject = Record<string, unknown>;

/** `{ type: 'text', text }`: most user and assistant turns are a single text block. */
export type TextBlock = {
  type: 'text';
  text: string;
};

/**
 * `{ type: 'tool_use', id, name, input }`: the model asks for a tool. `id` is the toolUseId, which is
 * also the `requestId` on the tool endpoints.
 */
export type ToolUseBlock = {
  type: 'tool_use';
  id: string;
  name: string;
  input: JsonObject;
};

/** One part of a tool result: text (errors, plain output) or a JSON value (a tool response). */
export type ToolResultContent = { type: 'text'; text: string } | { type: 'json'; json: unknown };

/**
 * `{ type: 'tool_result', tool_use_id, content, is_error }`: inserted by the server in a user message
 * once a tool call is settled. Clients never author it.
 */
export type ToolResultBlock = {
  type: 'tool_result';
  tool_use_id: string;
  content: ToolResultContent[];
  is_error: boolean;
};

/** A block of a message's content; check `type` before reading its fields. */
export type ContentBlock = TextBlock | ToolUseBlock | ToolResultBlock;

/** What a client may author: text blocks only. */
export type UserContentBlock = {
  type: 'text';
  text: string;
};
