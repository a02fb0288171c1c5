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
 * The `details` each error code carries: what the reference server sends (it types each error it
 * builds against this table). Codes not listed carry none. A newer server may add fields: they pass
 * through untouched. A fault injected by the testing toolkit (`x-parley-fault`) answers with
 * `{ status, injected: true, retryAfterSeconds? }` whatever its code, as `injected_fault` lists.
 */
export type ErrorDetailsByCode = {
  invalid_request: {
    /** Each field that broke the schema; absent when the body nests too deep. */
    issues?: RequestIssue[];
    /** The deepest nesting a JSON body may have (64), when the body nests deeper. */
    maxDepth?: number;
  };
  unknown_agent: {
    /** The `customizations.agentId` sent. */
    agentId: string;
    /** The agent ids of the catalogue. */
    known: string[];
  };
  unknown_model: {
    /** The `customizations.model` sent. */
    model: string;
    /** The models of the catalogue. */
    known: string[];
  };
  /**
   * The server's session setup names its `known` providers; a server with extensions (its MCP
   * gateway) names the `registered` ones. Either one is there, never both.
   */
  unknown_provider: {
    /** The name in `extensions.mcpProviders` that is not registered. */
    provider: string;
    known?: string[];
    registered?: string[];
  };
  unknown_index: {
    /** The name in `extensions.rag.indexes` that is not loaded. */
    index: string;
    /** The document indexes loaded. */
    registered: string[];
  };
  route_not_found: {
    /** On an MCP endpoint path: the providers served over HTTP there. Absent on other paths. */
    served?: string[];
  };
  reply_in_progress: {
    /** The session whose reply is running. */
    sessionId: string;
    /** When the running reply started (epoch ms); absent when the server does not know. */
    startedAt?: number;
    /** Whether the running reply streams; absent with `startedAt`. */
    streamed?: boolean;
  };
  tool_calls_open: {
    /** The tool calls of the last turn that are not settled yet. */
    openToolCalls: OpenToolCall[];
  };
  tool_call_terminal: {
    requestId: string;
    /** The terminal state it is in: COMPLETE, ERROR or ABANDONED. */
    state: ToolCallState;
  };
  payload_too_large: {
    /** The largest body the server accepts, in bytes. */
    maxBytes: number;
  };
  /**
   * The server's own quota sends all three; a quota an extension writes (its `checkQuota` hook)
   * may send `retryAfterSeconds` alone.
   */
  quota_exceeded: {
    product?: string;
    /** The quota: messages a product may send per minute. */
    messagesPerMinute?: number;
    /** When a send fits the quota again; the `Retry-After` header says it too. */
    retryAfterSeconds: number;
  };
  upstream_unreachable: {
    /** The checking proxy's upstream base URL (any password masked). */
    upstream: string;
  };
  upstream_timeout: {
    /** The checking proxy's upstream base URL (any password masked). */
    upstream: string;
    /** How long the proxy waited for the upstream's answer (`--upstream-timeout-ms`). */
    timeoutMs: number;
  };
  injected_fault: {
    /** The HTTP status injected. */
    status: number;
    injected: true;
    /** Injected with the fault's `retry-after`; the `Retry-After` header says it too. */
    retryAfterSeconds?: number;
  };
};
