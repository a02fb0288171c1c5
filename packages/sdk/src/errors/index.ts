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
export { ParleyError } from './parley-error.js';
export { ReplyRecoveryError } from './reply-recovery-error.js';
export { parseRetryAfter } from './retry-after.js';
export type { StreamErrorInit, ValidationIssue } from './stream-errors.js';
export {
  describeReceived,
  ResponseValidationError,
  StreamError,
} from './stream-errors.js';
export { ToolApprovalTimeoutError } from './tool-approval-timeout-error.js';
export type { ToolCallLostReason } from './tool-errors.js';
export { ToolCallLostError, ToolOutputTooLargeError, ToolReportError } from './tool-errors.js';
export { ToolNotDeclaredError } from './tool-not-declared-error.js';
export { ToolTimeoutError, toolTimeoutMessage } from './tool-timeout-error.js';
export { ToolWorkerDataError, ToolWorkerError, ToolWorkerTimeoutError } from './tool-worker-errors.js';
