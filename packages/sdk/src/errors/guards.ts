import type {
  APIError,
  AuthenticationError,
  BadRequestError,
  ConflictError,
  InternalServerError,
  NotFoundError,
  PayloadTooLargeError,
  PermissionDeniedError,
  RateLimitError,
} from './api-error.js';
import type { APIConnectionError, APITimeoutError, APIUserAbortError } from './connection-errors.js';
import { hasParleyBrand, type ParleyError } from './parley-error.js';
import type { ReplyRecoveryError } from './reply-recovery-error.js';
import type { ResponseValidationError, StreamError } from './stream-errors.js';
import type { ToolApprovalTimeoutError } from './tool-approval-timeout-error.js';
import type { ToolCallLostError, ToolOutputTooLargeError, ToolReportError } from './tool-errors.js';
import type { ToolNotDeclaredError } from './tool-not-declared-error.js';
import type { ToolTimeoutError } from './tool-timeout-error.js';
import type { ToolWorkerDataError, ToolWorkerError, ToolWorkerTimeoutError } from './tool-worker-errors.js';

function named(value: unknown, ...names: string[]): boolean {
  return hasParleyBrand(value) && names.includes(value.name);
}

const API_ERROR_NAMES = [
  'APIError',
  'BadRequestError',
  'AuthenticationError',
  'PermissionDeniedError',
  'NotFoundError',
  'ConflictError',
  'PayloadTooLargeError',
  'RateLimitError',
  'InternalServerError',
];

export const isParleyError = (value: unknown): value is ParleyError => hasParleyBrand(value);
export const isAPIError = (value: unknown): value is APIError => named(value, ...API_ERROR_NAMES);
export const isBadRequestError = (value: unknown): value is BadRequestError =>
  named(value, 'BadRequestError');
export const isAuthenticationError = (value: unknown): value is AuthenticationError =>
  named(value, 'AuthenticationError');
export const isPermissionDeniedError = (value: unknown): value is PermissionDeniedError =>
  named(value, 'PermissionDeniedError');
export const isNotFoundError = (value: unknown): value is NotFoundError => named(value, 'NotFoundError');
export const isConflictError = (value: unknown): value is ConflictError => named(value, 'ConflictError');
export const isPayloadTooLargeError = (value: unknown): value is PayloadTooLargeError =>
  named(value, 'PayloadTooLargeError');
export const isRateLimitError = (value: unknown): value is RateLimitError => named(value, 'RateLimitError');
export const isInternalServerError = (value: unknown): value is InternalServerError =>
  named(value, 'InternalServerError');
export const isAPIConnectionError = (value: unknown): value is APIConnectionError =>
  named(value, 'APIConnectionError', 'APITimeoutError');
export const isAPITimeoutError = (value: unknown): value is APITimeoutError =>
  named(value, 'APITimeoutError');
export const isAPIUserAbortError = (value: unknown): value is APIUserAbortError =>
  named(value, 'APIUserAbortError');
export const isResponseValidationError = (value: unknown): value is ResponseValidationError =>
  named(value, 'ResponseValidationError');
export const isStreamError = (value: unknown): value is StreamError => named(value, 'StreamError');
export const isToolReportError = (value: unknown): value is ToolReportError =>
  named(value, 'ToolReportError');
/**
 * A model call that replaying a cassette does not hold (code `replay_mismatch`): a buffered reply's
 * {@link InternalServerError} (501) or a stream's {@link StreamError}. Its message names the
 * cassette, the session, the turn, what was expected and what came.
 */
export const isReplayMismatchError = (
  value: unknown,
): value is (InternalServerError | StreamError) & { readonly code: 'replay_mismatch' } =>
  named(value, 'InternalServerError', 'StreamError') &&
  (value as { code?: unknown }).code === 'replay_mismatch';
export const isToolCallLostError = (value: unknown): value is ToolCallLostError =>
  named(value, 'ToolCallLostError');
export const isToolNotDeclaredError = (value: unknown): value is ToolNotDeclaredError =>
  named(value, 'ToolNotDeclaredError');
export const isToolOutputTooLargeError = (value: unknown): value is ToolOutputTooLargeError =>
  named(value, 'ToolOutputTooLargeError');
export const isToolWorkerError = (value: unknown): value is ToolWorkerError =>
  named(value, 'ToolWorkerError', 'ToolWorkerDataError', 'ToolWorkerTimeoutError');
export const isToolWorkerDataError = (value: unknown): value is ToolWorkerDataError =>
  named(value, 'ToolWorkerDataError');
export const isToolWorkerTimeoutError = (value: unknown): value is ToolWorkerTimeoutError =>
  named(value, 'ToolWorkerTimeoutError');
/** A handler ran past a time limit: `ToolTimeoutError` (main thread) or `ToolWorkerTimeoutError` (worker). */
export const isToolTimeoutError = (value: unknown): value is ToolTimeoutError | ToolWorkerTimeoutError =>
  named(value, 'ToolTimeoutError', 'ToolWorkerTimeoutError');
export const isToolApprovalTimeoutError = (value: unknown): value is ToolApprovalTimeoutError =>
  named(value, 'ToolApprovalTimeoutError');
export const isReplyRecoveryError = (value: unknown): value is ReplyRecoveryError =>
  named(value, 'ReplyRecoveryError');
