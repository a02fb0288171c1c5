/**
 * `POST /v1/tools/request/:sessionId/:requestId/heartbeat` body: a liveness beat (`PROCESSING`)
 * or a failure report (`ERROR`).
 */
export type HeartbeatRequest =
  | {
      state: 'PROCESSING';
      /** The caller's Unix time in whole milliseconds (`Date.now()`), never negative. */
      heartbeat: number;
    }
  | {
      state: 'ERROR';
      /** Human-readable, not empty; the model sees it and may adjust. */
      error: string;
      heartbeat?: number;
    };

/** `POST /v1/tools/response/:sessionId/:requestId` body. Fields besides `state` reach the model unchanged. */
export type ToolResponseRequest = {
  response: { state: 'COMPLETE'; [field: string]: unknown };
};

/**
 * Lease extension (docs/protocol.md, "Extension: tool-call leases"): the lease a `PROCESSING`
 * heartbeat with a `parley-lease` token is answered with, parsed from its `parley-lease-state`
 * header (the token is the request's). A server without the extension sends no such header.
 */
export type HeartbeatLease = {
  /** The token the lease is held by (the one the beat sent). */
  leaseToken: string;
  /** How many times the call was leased; 1 for the first worker, more after a takeover. */
  attempt: number;
  /** When this lease ends unless renewed (server clock, ms). */
  leaseExpiresAt: number;
  /** The server's heartbeat timeout: the length of a lease, in ms. */
  heartbeatTimeoutMs: number;
  /** When the call is abandoned if not settled (server clock, ms). */
  deadlineAt: number;
  /** The server's clock when it answered (ms): the call's times minus it are the time left. */
  now: number;
};

/** Lease extension: the `details` of `409 tool_call_leased`, naming the lease that holds the call. */
export type ToolCallLeasedDetails = {
  requestId: string;
  /** The holder's attempt number (1 for the sender of the reply, whose send picked the call up). */
  attempt: number;
  /** When the holder's lease ends unless renewed (server clock, ms). */
  leaseExpiresAt: number;
};
