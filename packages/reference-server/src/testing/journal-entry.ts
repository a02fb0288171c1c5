import type { ProtocolViolation } from '../http/protocol-violation.js';
import type { OptionKeys } from '../utils/check-options.js';
import type { EventTime } from './event-timeline.js';
import type { Fault } from './fault.js';
import type { PathPattern } from './path-pattern.js';
import type { ChaosMark } from './seeded-chaos.js';

/** What the journal keeps of a response. */
export interface JournalResponse {
  /** HTTP status; 0 for a connection dropped before any response. */
  status: number;
  /** The body parsed as JSON (buffered responses; text when it is not JSON). Absent for streams. */
  body?: unknown;
  /** True when the body was longer than the journal keeps; `body` is then its first characters. */
  bodyTruncated?: true;
  /** The error of an error body or of a stream's exception event. */
  error?: { code: string; message: string };
  /** The reply's stop reason (buffered or streamed send). */
  stopReason?: string;
  /** The assistant text of the reply, all messages joined (of a stream: its first `maxBodyBytes` characters). */
  text?: string;
  /** Streamed replies: true when `text` is only the start of the reply's text. */
  textTruncated?: true;
  /** Names of the client tools the reply waits for. */
  pendingTools?: string[];
  /** Streamed replies: how many events the client was sent. */
  events?: number;
  /**
   * Streamed replies: when each event was written, `atMs` after the request arrived (server clock),
   * with its kind; the first 999 and the newest when there were more than 1000
   * (`eventTimesTruncated`). Where a stream slowed or stopped shows as a gap.
   */
  eventTimes?: EventTime[];
  /** Streamed replies: events between the kept times and the newest one were left out. */
  eventTimesTruncated?: true;
  /** False while a stream is still being sent, and for a stream cut, dropped or left by the client. */
  complete: boolean;
}

/** One request the server answered, as `GET /_parley/journal` and `server.journal.entries()` give it. */
export interface JournalEntry {
  /** 1, 2, 3, ... in arrival order since the server started (not reset by `clear`). */
  seq: number;
  /** The `x-request-id` the response carried. */
  requestId: string;
  /** Server-clock time of arrival, Unix ms. */
  time: number;
  /** Server-clock ms from arrival to the last byte of the response (absent while streaming). */
  durationMs?: number;
  method: string;
  /** The URL path, e.g. `/v1/messages/sess_.../stream`. */
  path: string;
  /** The query string with its `?`, or `""`. */
  query: string;
  /** The authenticated user, if authentication passed. */
  user?: string;
  /** The session the request is about: from the path, or the id a create returned. */
  sessionId?: string;
  /** The request's W3C `traceparent` header, when it had one (a client that traces its requests). */
  traceparent?: string;
  /**
   * The request body parsed as JSON (text when it is not JSON; absent when empty), as the route
   * read it. Absent when no route read it (authentication failed, unknown route, injected fault);
   * for a body over the size limit, or longer than the journal keeps, the start of it with
   * `bodyTruncated`.
   */
  body?: unknown;
  bodyTruncated?: true;
  /** The fault injected into this request, if any. */
  fault?: Fault;
  /** Set when seeded chaos gave {@link fault}: its kind, the seed, and the request's number in its sequence. */
  chaos?: ChaosMark;
  /**
   * What the server answered. Absent only while the request is still being handled and nothing
   * was answered yet (a buffered reply running, an injected latency not over): read the entry again
   * once the call returned. A stream has it from its headers on (`complete: false` until it ends);
   * a dropped connection has `status: 0`.
   */
  response?: JournalResponse;
  /**
   * As a checking proxy (`upstream`): where the request or its answer broke the protocol, in the
   * order found (at most {@link MAX_VIOLATIONS_PER_ENTRY}; `violationCount` counts them all).
   */
  violations?: ProtocolViolation[];
  /** Every violation found in this exchange, also those past the ones kept. */
  violationCount?: number;
}

/** Violations one journal entry keeps (a broken stream could otherwise give one per event). */
export const MAX_VIOLATIONS_PER_ENTRY = 20;

/** Which entries to return; every condition given must hold. */
export interface JournalFilter {
  sessionId?: string;
  /** A path pattern (`*` = one segment or part of one) or a RegExp. */
  path?: PathPattern;
  method?: string;
  user?: string;
}

/** Every key of {@link JournalFilter}: a new condition is one more line here (TypeScript fails until it is). */
export const JOURNAL_FILTER_KEYS = {
  sessionId: 'string',
  path: true,
  method: 'string',
  user: 'string',
} as const satisfies OptionKeys<JournalFilter>;
