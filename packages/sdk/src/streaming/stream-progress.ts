import {
  APIUserAbortError,
  describeReceived,
  isParleyError,
  ResponseValidationError,
  StreamError,
  type ValidationIssue,
} from '../errors/index.js';
import type { KnownStreamEventKind } from '../wire/index.js';
import { errorFromRelay, RELAYED_ERROR_KIND } from './relayed-error.js';
import { ListenerFailure } from './stream-consumers.js';
import { decodeStreamEvent, type StreamEventItem } from './stream-events.js';

/** Told of a stream's progress (its span, with a tracer): each event read, and the end. */
export interface StreamObserver {
  /** An event was read; `count` counts them, this one included. */
  event(count: number): void;
  /** The reply arrived (`replyStop`, with its stop reason) or the stream failed with `error`. */
  end(events: number, error?: Error, stopReason?: string): void;
}

/**
 * What a stream has delivered so far (event count, last kind, the response's request id), and the
 * errors that name it: every stream error says how far the stream got.
 */
export class StreamProgress {
  eventCount = 0;
  lastKind: string | undefined;
  readonly #requestId: () => string | undefined;
  readonly #observer: StreamObserver | undefined;

  constructor(requestId: () => string | undefined, observer?: StreamObserver) {
    this.#requestId = requestId;
    this.#observer = observer;
  }

  /**
   * Decodes and counts one raw event, or throws the error it stands for: a known kind without the
   * fields the SDK reads, or the failure a relayed stream carried (only `toReadableStream()` writes
   * that kind).
   */
  read(raw: unknown): StreamEventItem {
    const decoded = decodeStreamEvent(raw);
    if (!decoded.ok) throw this.invalid(decoded.kind, decoded.issues, decoded.payload);
    const item = decoded.item;
    if (item.type === 'unknown' && item.kind === RELAYED_ERROR_KIND) {
      throw errorFromRelay(item.payload, this.eventCount);
    }
    this.eventCount++;
    this.lastKind = item.type === 'unknown' ? item.kind : item.type;
    const observer = this.#observer;
    if (observer) {
      observer.event(this.eventCount);
      if (item.type === 'replyStop') observer.end(this.eventCount, undefined, item.stopReason);
    }
    return item;
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

  /** The error a stream ends with, whatever broke it: a listener's own error stays as it was thrown. */
  failure(error: unknown, aborted: boolean): Error {
    const failure = this.#failure(error, aborted);
    this.#observer?.end(this.eventCount, failure);
    return failure;
  }

  #failure(error: unknown, aborted: boolean): Error {
    if (error instanceof ListenerFailure) return error.error;
    if (isParleyError(error)) return error;
    if (aborted) return new APIUserAbortError(`Stream was aborted (${this.received()})`, { cause: error });
    const detail = error instanceof Error ? error.message : String(error);
    return this.broken(`The stream broke: ${detail}`, error);
  }
}
