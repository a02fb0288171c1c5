export type { APIErrorInit } from './api-error.js';
export {
  APIError,
  AuthenticationError,
  BadRequestError,
  ConflictError,
  InternalServerError,
  NotFoundError,
  PayloadTooLargeError,
  PermissionDeniedError,
  RateLimitError,
  REQUEST_ID_HEADER,
} from './api-error.js';
export { APIConnectionError, APITimeoutError, APIUserAbortError } from './connection-errors.js';
export {
  isAPIConnectionError,
  isAPIError,
  isAPITimeoutError,
  isAPIUserAbortError,
  isAuthenticationError,
  isBadRequestError,
  isConflictError,
  isInternalServerError,
  isNotFoundError,
  isParleyError,
  isPayloadTooLargeError,
  isPermissionDeniedError,
  isRateLimitError,
  isReplayMismatchError,
  isReplyRecoveryError,
  isResponseValidationError,
  isStreamError,
  isToolApprovalTimeoutError,
  isToolCallLostError,
  isToolNotDeclaredError,
  isToolOutputTooLargeError,
  isToolReportError,
  isToolTimeoutError,
  isToolWorkerDataError,
  isToolWorkerError,
  isToolWorkerTimeoutError,
} from './guards.js';
export { ParleyError } from './parley-error.js';
export { ReplyRecoveryError } from './reply-recovery-error.js';
export { parseRetryAfter } from './retry-after.js';
export type { StreamErrorInit, ValidationIssue } from './stream-errors.js';
export {
  describeReceived,
  ResponseValidationError,
  StreamError,
} from './stream-errors.js';
export type { ToolCallLostReason } from './tool-errors.js';
export { ToolCallLostError, ToolOutputTooLargeError, ToolReportError } from './tool-errors.js';
export { ToolNotDeclaredError } from './tool-not-declared-error.js';
export { ToolWorkerDataError, ToolWorkerError, ToolWorkerTimeoutError } from './tool-worker-errors.js';
