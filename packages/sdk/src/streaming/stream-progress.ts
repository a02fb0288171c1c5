import {
  APIUserAbortError,
  describeReceived,
  ResponseValidationError,
  StreamError,
  type ValidationIssue,
} from '../errors/index.js';
import type { KnownStreamEventKind } from '../wire/index.js';
import type { StreamEventItem } from './stream-events.js';

/**
 * What a stream has delivered so far (event count, last kind, the response's request id), and the
 * errors that name it: every stream error says how far the stream got.
 */
export class StreamProgress {
  eventCount = 0;
  lastKind: string | undefined;
  readonly #requestId: () => string | undefined;

  constructor(requestId: () => string | undefined) {
    this.#requestId = requestId;
  }

  /** Counts one delivered event. */
  delivered(item: StreamEventItem): void {
    this.eventCount++;
    this.lastKind = item.type === 'unknown' ? item.kind : item.type;
  }

  /** `after 3 events, last messageStop, request req_1` */
  received(): string {
    return describeReceived({
      eventCount: this.eventCount,
      lastEventKind: this.lastKind,
      requestId: this.#requestId(),
    });
  }

  broken(message: string, cause?: unknown): StreamError {
    return new StreamError(message, {
      eventCount: this.eventCount,
      lastEventKind: this.lastKind,
      requestId: this.#requestId(),
      cause,
    });
  }

  /** An exception event (`modelStreamErrorException`, ...) the server sent. */
  exception(item: { type: string; message: string; code?: string | undefined }): StreamError {
    return new StreamError(`The stream reported ${item.type}: ${item.message}`, {
      eventCount: this.eventCount,
      lastEventKind: this.lastKind,
      exceptionKind: item.type,
      code: item.code,
      requestId: this.#requestId(),
    });
  }

  /** A known event without the fields the SDK reads. */
  invalid(kind: KnownStreamEventKind, issues: ValidationIssue[], payload: unknown): ResponseValidationError {
    const first = issues[0];
    const at = first ? `${first.path.map(String).join('.') || '(root)'}: ${first.message}` : 'invalid';
    return new ResponseValidationError(
      `Stream event ${this.eventCount} (${kind}) does not match the protocol at ${at} (${this.received()})`,
      { issues, body: payload },
    );
  }

  aborted(cause: unknown): APIUserAbortError {
    return new APIUserAbortError(`Stream was aborted (${this.received()})`, { cause });
  }
}
