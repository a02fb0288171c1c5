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
