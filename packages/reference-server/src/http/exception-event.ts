import type { ExceptionEventKind } from '@parley/protocol';
import type { HttpError } from '../http-error.js';

/** The stream event for an error after the headers were sent, e.g. `{"modelStreamErrorException":{...}}`. */
export function exceptionEvent(error: HttpError): Record<string, unknown> {
  return {
    [exceptionKind(error)]: { message: error.message, code: error.code, originalStatusCode: error.status },
  };
}

function exceptionKind(error: HttpError): ExceptionEventKind {
  switch (error.code) {
    case 'internal_error':
    case 'session_not_found':
      return 'internalServerException';
    case 'quota_exceeded':
      return 'throttlingException';
    case 'injected_fault':
      return 'serviceUnavailableException';
    case 'invalid_request':
      return 'validationException';
    default:
      return 'modelStreamErrorException';
  }
}
