import {
  arrayOf,
  literal,
  nullable,
  number,
  object,
  optional,
  record,
  type Shape,
  string,
} from '../internal/shape.js';

// The fields the SDK and its helpers read, checked by hand (docs/sdk.md, "Response validation"):
// a mismatch is a ResponseValidationError; unknown fields and values pass through untouched.

export const RoleShape = literal('user', 'assistant', 'system');

export const MessageShape = object({
  role: RoleShape,
  index: number,
  content: arrayOf(object({ type: string })),
  deletedAt: nullable(number),
});

export const PendingToolShape = object({ requestId: string, name: string, input: record });

export const UsageShape = object({ inputTokens: number, outputTokens: number, totalTokens: number });

/** A reply without its session id: the buffered reply, and `replyStop` in a stream. */
const replyFields = {
  messages: arrayOf(MessageShape),
  stopReason: string,
  pendingTools: arrayOf(PendingToolShape),
  heartbeatTimeoutMs: number,
  usage: optional(UsageShape),
};
export const ReplyStopShape: Shape = object(replyFields);
export const MessageReplyShape: Shape = object({ sessionId: string, ...replyFields });

export const CreateSessionShape: Shape = object({ sessionId: string });
export const ListSessionsShape: Shape = object({
  sessions: arrayOf(object({ sessionId: string, createdAt: number })),
});
export const ExportMessagesShape: Shape = object({ messages: arrayOf(MessageShape) });
export const RewindShape: Shape = object({ retracted: arrayOf(number), abandonedToolCalls: arrayOf(string) });
export const ToolCallShape: Shape = object({ requestId: string, name: string, state: string, input: record });

/** `{ error: { code, message, details? } }`, the body of every error response. */
export const ErrorBodyShape: Shape = object({
  error: object({ code: string, message: string, details: optional(record) }),
});
