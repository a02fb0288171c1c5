import type { MessageReply, Role, StopReason, Usage } from './message.js';

// The payload of each known event kind of a streamed reply (Amazon Bedrock ConverseStream shapes,
// plus Parley's `index`, `toolResult` blocks and `replyStop`). The start and delta of a content
// block are unions that narrow with `in`: `if ('text' in event.delta) event.delta.text` is a
// string. Their last member, `object`, stands for a kind a newer server may add: it declares no
// field, so it never widens the known ones (`'text' in delta` drops it), and any field of it can
// still be read after an `in` check.

/** `contentBlockStart.start` of a tool call. */
export type ToolUseBlockStart = {
  toolUse: { toolUseId: string; name: string };
};
/** `contentBlockStart.start` of a tool result (Parley). */
export type ToolResultBlockStart = {
  toolResult: { toolUseId: string; status: 'success' | 'error' };
};
/** What opens a content block. Text blocks have no start: their first delta opens them. */
export type ContentBlockStart = ToolUseBlockStart | ToolResultBlockStart | object;

/** A fragment of assistant or user text. */
export type TextDelta = {
  text: string;
};
/** A fragment of a tool call's input, as JSON text: the fragments joined are the input. */
export type ToolUseDelta = {
  toolUse: { input: string };
};
/** One part of a tool result: text or a JSON value. */
export type ToolResultDeltaPart = { text: string } | { json: unknown };
/** Parts of a tool result (Parley). */
export type ToolResultDelta = {
  toolResult: ToolResultDeltaPart[];
};
/** A content block's delta: narrow with `'text' in delta`, `'toolUse' in delta`, `'toolResult' in delta`. */
export type ContentBlockDelta = TextDelta | ToolUseDelta | ToolResultDelta | object;

export type MessageStartPayload = {
  role: Role;
  /** Parley: the index the message gets in the conversation. */
  index: number;
};
export type ContentBlockStartPayload = {
  contentBlockIndex: number;
  start: ContentBlockStart;
};
export type ContentBlockDeltaPayload = {
  contentBlockIndex: number;
  delta: ContentBlockDelta;
};
export type ContentBlockStopPayload = {
  contentBlockIndex: number;
};
export type MessageStopPayload = {
  /** Present on assistant messages only. */
  stopReason?: StopReason | undefined;
  additionalModelResponseFields?: unknown;
};
export type MetadataPayload = {
  usage: Usage;
  metrics?: { latencyMs: number } | undefined;
};
/** An exception event: the reply failed after its headers were sent. */
export type ExceptionPayload = {
  message: string;
  /** Parley: the error code from the error table (e.g. `model_error`). */
  code?: string | undefined;
  originalStatusCode?: number | undefined;
  originalMessage?: string | undefined;
};
/** Parley: the last event of a completed reply; everything the buffered reply carries but `sessionId`. */
export type ReplyStopPayload = Omit<MessageReply, 'sessionId'>;

/** The kinds of exception event. */
export type ExceptionEventKind =
  | 'internalServerException'
  | 'modelStreamErrorException'
  | 'validationException'
  | 'throttlingException'
  | 'serviceUnavailableException';

/** The payload of each known event kind. */
export type StreamEventPayloads = {
  messageStart: MessageStartPayload;
  contentBlockStart: ContentBlockStartPayload;
  contentBlockDelta: ContentBlockDeltaPayload;
  contentBlockStop: ContentBlockStopPayload;
  messageStop: MessageStopPayload;
  metadata: MetadataPayload;
  replyStop: ReplyStopPayload;
  internalServerException: ExceptionPayload;
  modelStreamErrorException: ExceptionPayload;
  validationException: ExceptionPayload;
  throttlingException: ExceptionPayload;
  serviceUnavailableException: ExceptionPayload;
};

/** An event kind this version of the protocol knows (a newer server may send others). */
export type KnownStreamEventKind = keyof StreamEventPayloads;
