import {
  APIUserAbortError,
  describeReceived,
  ParleyError,
  ResponseValidationError,
  StreamError,
  type ValidationIssue,
} from '../errors/index.js';
import type { KnownStreamEventKind } from '../wire/index.js';
import { errorFromRelay, RELAYED_ERROR_KIND } from './relayed-error.js';
import { ListenerFailure } from './stream-consumers.js';
import { decodeStreamEvent, type StreamEventItem } from './stream-events.js';

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
    if (error instanceof ListenerFailure) return error.error;
    if (error instanceof ParleyError) return error;
    if (aborted) return new APIUserAbortError(`Stream was aborted (${this.received()})`, { cause: error });
    const detail = error instanceof Error ? error.message : String(error);
    return this.broken(`The stream broke: ${detail}`, error);
  }
}
