import type { ToolCallState } from './message.js';

/** One field of a request that broke the schema (`invalid_request`). */
export type RequestIssue = {
  /** Where, e.g. `content.0.type`, or `(body)` for the body as a whole. */
  path: string;
  message: string;
};

/** An open tool call of the last turn (`tool_calls_open`). */
export type OpenToolCall = {
  requestId: string;
  name: string;
  state: ToolCallState;
};

/**
 * The `details` each error code carries. Codes not listed carry none. A newer server may add
 * fields: they pass through untouched.
 */
export type ErrorDetailsByCode = {
  invalid_request: { issues?: RequestIssue[]; maxDepth?: number };
  unknown_agent: { agentId: string; known: string[] };
  unknown_model: { model: string; known: string[] };
  unknown_provider: { provider: string; known?: string[]; registered?: string[] };
  unknown_index: { index: string; registered: string[] };
  route_not_found: { served?: string[] };
  reply_in_progress: { sessionId: string; startedAt?: number; streamed?: boolean };
  tool_calls_open: { openToolCalls: OpenToolCall[] };
  tool_call_terminal: { requestId: string; state: ToolCallState };
  payload_too_large: { maxBytes: number };
  quota_exceeded: { product?: string; messagesPerMinute?: number; retryAfterSeconds: number };
};
