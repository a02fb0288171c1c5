import { EXCEPTION_EVENT_KINDS, isKnownStreamEventKind, STREAM_EVENT_SCHEMAS } from '@parley/protocol';
import { StreamBodyScanner } from '@parley/protocol/stream-body-scanner';
import type { ProtocolViolation } from '../http/protocol-violation.js';
import { describeValue, violationsOf } from './violations-of.js';

/** A stream event longer than this (characters) passes unchecked: the scanner keeps one event at a time. */
export const MAX_CHECKED_EVENT_CHARS = 1024 * 1024;

/** What a {@link StreamChecker} tells. */
export interface StreamCheckerHandlers {
  /** One event of the body, parsed (whether or not it is valid). */
  event(event: Record<string, unknown> | string, index: number): void;
  violation(violation: ProtocolViolation): void;
}

const LAST_KINDS = new Set<string>(['replyStop', ...EXCEPTION_EVENT_KINDS]);
const KNOWN_KINDS = Object.keys(STREAM_EVENT_SCHEMAS).join(', ');

/**
 * Checks a streamed reply's body as its bytes pass: the body's shape, each event against the
 * protocol's schema for its kind, and how the body ended. It never holds more than one event.
 */
export class StreamChecker {
  readonly #scanner: StreamBodyScanner;
  readonly #handlers: StreamCheckerHandlers;
  /** Set once the bytes stop being the expected JSON: nothing more is checked. */
  #broken = false;
  #sessionIdSeen = false;
  /** Elements of `events` read to their end (checked, or skipped as too long). */
  #eventsRead = 0;
  #lastKind: string | undefined;

  constructor(handlers: StreamCheckerHandlers) {
    this.#handlers = handlers;
    this.#scanner = new StreamBodyScanner(
      {
        field: (key, value) => this.#field(key, value),
        event: (value, index) => this.#event(value, index),
        oversized: (index) => {
          this.#eventsRead = index + 1;
        },
      },
      { maxValueChars: MAX_CHECKED_EVENT_CHARS },
    );
  }

  /** Whether the body's JSON closed. */
  get complete(): boolean {
    return this.#scanner.complete;
  }

  write(chunk: Uint8Array): void {
    if (this.#broken) return;
    try {
      this.#scanner.write(chunk);
    } catch (error) {
      this.#syntax(error as Error);
    }
  }

  /** The body ended (all of it came, or the upstream stopped): checks how. */
  end(): void {
    if (this.#broken) return;
    try {
      this.#scanner.end();
    } catch (error) {
      this.#syntax(error as Error);
      return;
    }
    const scanner = this.#scanner;
    if (!scanner.complete) {
      const open = scanner.openEvent;
      this.#handlers.violation(
        open !== undefined
          ? {
              in: 'response',
              path: `events[${open}]`,
              expected: 'the whole event',
              got: 'the body ended inside it',
            }
          : {
              in: 'response',
              path: '',
              expected: 'the body to end with the events array closed (]})',
              got: `the body ended open after ${this.#eventsRead} events`,
            },
      );
      return;
    }
    if (!this.#sessionIdSeen) {
      this.#handlers.violation({ in: 'response', path: 'sessionId', expected: 'string', got: 'nothing' });
    }
    const last = this.#lastKind;
    if (last === undefined || !LAST_KINDS.has(last)) {
      this.#handlers.violation({
        in: 'response',
        path: `events[${Math.max(0, this.#eventsRead - 1)}]`,
        expected: 'a replyStop or an exception event last',
        got: last === undefined ? 'no events' : `a ${last} event`,
      });
    }
  }

  #syntax(error: Error): void {
    this.#broken = true;
    const open = this.#scanner.openEvent;
    this.#handlers.violation({
      in: 'response',
      path: open === undefined ? '' : `events[${open}]`,
      expected: 'a JSON body {"sessionId": ..., "events": [...]}',
      got: `invalid JSON: ${error.message}`,
    });
  }

  #field(key: string, value: unknown): void {
    if (key === 'sessionId') {
      this.#sessionIdSeen = true;
      if (typeof value !== 'string') {
        this.#handlers.violation({
          in: 'response',
          path: 'sessionId',
          expected: 'string',
          got: describeValue(value),
        });
      }
    } else if (key === 'events') {
      this.#handlers.violation({
        in: 'response',
        path: 'events',
        expected: 'array',
        got: describeValue(value),
      });
    }
  }

  #event(value: unknown, index: number): void {
    this.#eventsRead = index + 1;
    const handlers = this.#handlers;
    const isObject = typeof value === 'object' && value !== null && !Array.isArray(value);
    handlers.event(isObject ? (value as Record<string, unknown>) : JSON.stringify(value), index);
    const keys = isObject ? Object.keys(value) : [];
    const kind = keys[0];
    if (kind === undefined || keys.length !== 1) {
      this.#lastKind = undefined;
      handlers.violation({
        in: 'response',
        path: `events[${index}]`,
        expected: 'an object with one key, the event kind',
        got: describeValue(value),
      });
      return;
    }
    this.#lastKind = kind;
    if (!isKnownStreamEventKind(kind)) {
      handlers.violation({
        in: 'response',
        path: `events[${index}]`,
        expected: `one of the known event kinds (${KNOWN_KINDS})`,
        got: `an event of kind ${JSON.stringify(kind)}`,
      });
      return;
    }
    const payload = (value as Record<string, unknown>)[kind];
    for (const violation of violationsOf(STREAM_EVENT_SCHEMAS[kind], payload, 'response', [
      'events',
      index,
      kind,
    ])) {
      handlers.violation(violation);
    }
  }
}
