import { CLASS_BRAND, ParleyError } from './parley-error.js';

/** One mismatch between a response and what the SDK reads from it (a Standard Schema issue). */
export interface ValidationIssue {
  /** What is wrong, e.g. `expected a string`. */
  readonly message: string;
  /** Where: keys and array indexes from the body's root, e.g. `['sessions', 0, 'sessionId']`. */
  readonly path: ReadonlyArray<PropertyKey>;
}

/** A 2xx response whose body does not have the fields the SDK reads. `issues` says which, as data. */
export class ResponseValidationError extends ParleyError {
  /** @internal */
  static override readonly [CLASS_BRAND]: string = 'ResponseValidationError';
  override readonly name = 'ResponseValidationError' as const;
  readonly issues: ValidationIssue[];
  /** The body as received. */
  readonly body: unknown;
  constructor(message: string, init: { issues: ValidationIssue[]; body: unknown; cause?: unknown }) {
    super(message, { cause: init.cause });
    this.issues = init.issues;
    this.body = init.body;
  }
}

/** What a stream had delivered when it broke. */
export interface StreamErrorInit {
  /** Events received before the failure. */
  eventCount: number;
  /** The kind of the last event received (`contentBlockDelta`, ...), if any. */
  lastEventKind?: string | undefined;
  /** For an exception event: its kind (`modelStreamErrorException`, ...). */
  exceptionKind?: string | undefined;
  /** For an exception event: its Parley code (`model_error`, ...). */
  code?: string | undefined;
  /** The server's `x-request-id` of the streamed response, when its headers arrived. */
  requestId?: string | undefined;
  cause?: unknown;
}

/** `after 3 events, last messageStop, request req_1`: what a stream had delivered. */
export function describeReceived(init: Omit<StreamErrorInit, 'cause'>): string {
  const events = `after ${init.eventCount} event${init.eventCount === 1 ? '' : 's'}`;
  const last = init.lastEventKind ? `, last ${init.lastEventKind}` : '';
  const request = init.requestId ? `, request ${init.requestId}` : '';
  return events + last + request;
}

/**
 * A stream that broke: an exception event, a body that ended early (no `]}` or no `replyStop`),
 * malformed JSON, or an idle gap. The message names what was received.
 */
export class StreamError extends ParleyError {
  /** @internal */
  static override readonly [CLASS_BRAND]: string = 'StreamError';
  override readonly name = 'StreamError' as const;
  readonly eventCount: number;
  readonly lastEventKind: string | undefined;
  readonly exceptionKind: string | undefined;
  readonly code: string | undefined;
  readonly requestId: string | undefined;
  constructor(message: string, init: StreamErrorInit) {
    super(`${message} (${describeReceived(init)})`, { cause: init.cause });
    this.eventCount = init.eventCount;
    this.lastEventKind = init.lastEventKind;
    this.exceptionKind = init.exceptionKind;
    this.code = init.code;
    this.requestId = init.requestId;
  }
}
