import type { ContentBlock, JsonObject, UserContentBlock } from './content.js';

export type Role = 'user' | 'assistant' | 'system';

/** A message of a conversation. Order by `index`, never by `createdAt`: timestamps can collide. */
export type Message = {
  role: Role;
  /** Strictly increasing per session, never reused (not even after a rewind). */
  index: number;
  content: ContentBlock[];
  /** Unix ms when the message was retracted (rewind, interrupted reply); `null` while live. */
  deletedAt: number | null;
  /** Unix ms when the server stored the message. */
  createdAt: number;
};

/** Why the model stopped. Bedrock's values; unknown future values pass through. */
export type StopReason =
  | 'end_turn'
  | 'tool_use'
  | 'max_tokens'
  | 'stop_sequence'
  | 'guardrail_intervened'
  | 'content_filtered'
  | 'malformed_model_output'
  | 'malformed_tool_use'
  | 'model_context_window_exceeded'
  | (string & {});

export type ToolCallState = 'PENDING' | 'PROCESSING' | 'COMPLETE' | 'ERROR' | 'ABANDONED';

/** A client tool call the reply stopped for. */
export type PendingTool = {
  /** The tool_use block's id; the `:requestId` of the tool endpoints. */
  requestId: string;
  name: string;
  input: JsonObject;
  state: ToolCallState;
  /** Unix ms when the model emitted the call. */
  createdAt: number;
  /** Unix ms after which the call is abandoned; heartbeats do not extend it. */
  deadlineAt: number;
};

export type Usage = {
  inputTokens: number;
  outputTokens: number;
  totalTokens: number;
};

/**
 * The buffered reply (and, inside `replyStop`, the end of a streamed one). The server always sends
 * `stopReason` and `heartbeatTimeoutMs`. Both are optional here on purpose (the client's leniency;
 * the schema requires them): a reply a client rebuilt from the session, as the SDK's `recover`
 * option does (action `use`), has what the session says and leaves out what it does not
 * (docs/sdk.md, "Recovery").
 */
export type MessageReply = {
  sessionId: string;
  /** The messages this call appended, in index order. */
  messages: Message[];
  /**
   * Why the model stopped. Absent only on a reply taken from the session whose stop reason
   * nobody reported: a final answer whose stream was cut before its `messageStop`, or a buffered
   * reply whose body was lost. A reply with pending tools is always `tool_use`.
   */
  stopReason?: StopReason;
  /** Client tool calls to fulfil before resuming; empty unless `stopReason` is `tool_use`. */
  pendingTools: PendingTool[];
  /**
   * The server's heartbeat timeout: a call with no heartbeat for this long is claimable again.
   * Absent only on a reply taken from the session (the session does not record it): pass it on
   * as it is, and the heartbeat beats at `defaults.heartbeat.intervalMs` (1 s).
   */
  heartbeatTimeoutMs?: number;
  usage?: Usage | undefined;
};

/** `GET /v1/messages/:sessionId[?includeDeleted=true]` → 200. */
export type ExportMessagesResponse = {
  sessionId: string;
  messages: Message[];
};

/** `POST /v1/messages/:sessionId/rewind` body. */
export type RewindRequest = {
  /** The index of a live, client-authored user message: it and everything after it are retracted. */
  index: number;
};

/** `POST /v1/messages/:sessionId/rewind` → 200. */
export type RewindResponse = {
  sessionId: string;
  /** Indexes of the messages this call retracted. */
  retracted: number[];
  /** requestIds of the open tool calls this call abandoned. */
  abandonedToolCalls: string[];
};

export type SessionSummary = {
  sessionId: string;
  /** Unix ms. */
  createdAt: number;
};

/** `GET /v1/sessions` → 200, newest first. */
export type ListSessionsResponse = {
  sessions: SessionSummary[];
};

/** `GET /v1/tools/request/:sessionId/:requestId` → 200: one tool call as the server sees it now. */
export type ToolCall = {
  sessionId: string;
  requestId: string;
  name: string;
  input: JsonObject;
  state: ToolCallState;
  createdAt: number;
  deadlineAt: number;
  /**
   * Server receive time of the last PROCESSING heartbeat (lease extension: a call a leasing send
   * picked up starts with its creation time).
   */
  lastHeartbeatAt: number | null;
  /** When the call reached a terminal state. */
  settledAt: number | null;
  /** The error text for ERROR and ABANDONED calls. */
  error?: string | undefined;
  /**
   * Lease extension (docs/protocol.md, "Extension: tool-call leases"): how many times the call was
   * leased to a worker (0 before the first). Absent on a server without the extension.
   */
  attempt?: number | undefined;
  /** Lease extension: when the current lease ends (server clock, ms), `null` when none is held. */
  leaseExpiresAt?: number | null | undefined;
};

/** `POST /v1/messages/:sessionId[/stream]` body: the user's turn, or nothing to resume. */
export type SendMessageRequest = {
  content?: string | UserContentBlock[];
};
