import * as z from 'zod';
import { JsonObjectSchema } from './content.js';
import { MessageSchema } from './message.js';
import type { StopReason } from './wire/message.js';

export type { SendMessageRequest, StopReason } from './wire/message.js';

const TEXT_BLOCK_EXAMPLE = '{ "type": "text", "text": "..." }';

/** Why a block a client sent is not a text block, and what to send instead. */
function notATextBlock(block: unknown): string | undefined {
  const type = typeof block === 'object' && block !== null ? (block as { type?: unknown }).type : undefined;
  if (type === 'tool_use') {
    return (
      'a user message cannot hold a tool_use block: only the model asks for tools. To answer its tool ' +
      'call, submit the result with POST /v1/tools/response/:sessionId/:requestId (or report a failure ' +
      'with POST /v1/tools/request/:sessionId/:requestId/heartbeat and state ERROR), then resume with ' +
      `an empty body {}; to say something, send a text block ${TEXT_BLOCK_EXAMPLE}`
    );
  }
  if (type === 'tool_result') {
    return (
      'a user message cannot hold a tool_result block: tool_result blocks are inserted by the server ' +
      'when a tool response is submitted (POST /v1/tools/response/:sessionId/:requestId); then resume ' +
      'with an empty body {}'
    );
  }
  if (typeof type === 'string') return `clients send only text blocks, ${TEXT_BLOCK_EXAMPLE}, not "${type}"`;
  return `clients send only text blocks: ${TEXT_BLOCK_EXAMPLE}`;
}

/**
 * What a client may author: text only. Any other block is refused with one message that says why
 * and what to send instead (a `tool_use` block: submit the tool response, then resume).
 */
export const UserContentBlockSchema = z.discriminatedUnion(
  'type',
  [z.strictObject({ type: z.literal('text'), text: z.string().min(1) })],
  { error: (issue) => (issue.code === 'invalid_union' ? notATextBlock(issue.input) : undefined) },
);
export type UserContentBlock = z.infer<typeof UserContentBlockSchema>;

/**
 * `POST /v1/messages/:sessionId[/stream]` body. `content` is the user's turn; without `content`
 * the call resumes the conversation after its tool calls are settled.
 */
export const SendMessageRequestSchema = z.strictObject({
  content: z
    .union(
      [
        z.string().min(1, 'must not be empty'),
        z.array(UserContentBlockSchema).min(1, 'must hold at least one block'),
      ],
      { error: 'must be a non-empty string or an array of text blocks' },
    )
    .optional(),
});

export const StopReasonSchema = z.string() as z.ZodType<StopReason>;

export const ToolCallStateSchema = z.enum(['PENDING', 'PROCESSING', 'COMPLETE', 'ERROR', 'ABANDONED']);
export type ToolCallState = z.infer<typeof ToolCallStateSchema>;

/** A client tool call the reply stopped for. */
export const PendingToolSchema = z.looseObject({
  /** The tool_use block's id; the `:requestId` of the tool endpoints. */
  requestId: z.string(),
  name: z.string(),
  input: JsonObjectSchema,
  state: ToolCallStateSchema,
  /** Unix ms when the model emitted the call. */
  createdAt: z.number(),
  /** Unix ms after which the call is abandoned; heartbeats do not extend it. */
  deadlineAt: z.number(),
});
export type PendingTool = z.infer<typeof PendingToolSchema>;

export const UsageSchema = z.looseObject({
  inputTokens: z.number(),
  outputTokens: z.number(),
  totalTokens: z.number(),
});
export type Usage = z.infer<typeof UsageSchema>;

/** The buffered reply (and, inside `replyStop`, the end of a streamed one). */
export const MessageReplySchema = z.looseObject({
  sessionId: z.string(),
  /** The messages this call appended, in index order. */
  messages: z.array(MessageSchema),
  stopReason: StopReasonSchema,
  /** Client tool calls to fulfil before resuming; empty unless `stopReason` is `tool_use`. */
  pendingTools: z.array(PendingToolSchema),
  /** The server's heartbeat timeout: a call with no heartbeat for this long is claimable again. */
  heartbeatTimeoutMs: z.number(),
  usage: UsageSchema.optional(),
});
export type MessageReply = z.infer<typeof MessageReplySchema>;

/** `GET /v1/messages/:sessionId[?includeDeleted=true]` → 200. */
export const ExportMessagesResponseSchema = z.looseObject({
  sessionId: z.string(),
  messages: z.array(MessageSchema),
});
export type ExportMessagesResponse = z.infer<typeof ExportMessagesResponseSchema>;

/** `POST /v1/messages/:sessionId/rewind` body: retract the user message at `index` and all after it. */
export const RewindRequestSchema = z.strictObject({
  index: z.number().int().nonnegative(),
});
export type RewindRequest = z.infer<typeof RewindRequestSchema>;

export const RewindResponseSchema = z.looseObject({
  sessionId: z.string(),
  /** Indexes of the messages this call retracted. */
  retracted: z.array(z.number()),
  /** requestIds of the open tool calls this call abandoned. */
  abandonedToolCalls: z.array(z.string()),
});
export type RewindResponse = z.infer<typeof RewindResponseSchema>;
