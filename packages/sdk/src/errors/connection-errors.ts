import { CLASS_BRAND, ParleyError } from './parley-error.js';

/** The request never got an HTTP response: DNS, refused connection, reset socket, ... */
export class APIConnectionError extends ParleyError {
  /** @internal */
  static override readonly [CLASS_BRAND]: string = 'APIConnectionError';
  override readonly name: string = 'APIConnectionError';
  constructor(message = 'Connection error', options?: { cause?: unknown }) {
    super(message, options);
  }
}

/** The request (or a stream's first event / idle gap) exceeded its time limit. */
export class APITimeoutError extends APIConnectionError {
  /** @internal */
  static override readonly [CLASS_BRAND]: string = 'APITimeoutError';
  override readonly name = 'APITimeoutError' as const;
  constructor(message = 'Request timed out', options?: { cause?: unknown }) {
    super(message, options);
  }
}

/** The caller aborted through its `AbortSignal` (or `stream.abort()`). */
export class APIUserAbortError extends ParleyError {
  /** @internal */
  static override readonly [CLASS_BRAND]: string = 'APIUserAbortError';
  override readonly name = 'APIUserAbortError' as const;
  constructor(message = 'Request was aborted', options?: { cause?: unknown }) {
    super(message, options);
  }
}
