import type { ConversationScope } from '../conversation/conversation-scope.js';
import type { EventPacer } from '../http/event-pacer.js';
import type { ProtocolViolation } from '../http/protocol-violation.js';
import type { RequestHooks } from '../http/request-hooks.js';
import type { StreamObserver } from '../http/stream-writer.js';
import type { Clock } from '../time/clock.js';
import type { Fault } from './fault.js';
import { type BodyForm, keepBody, sessionIdOf, shownBody, summarizeBody } from './journal-body.js';
import { type JournalEntry, type JournalResponse, MAX_VIOLATIONS_PER_ENTRY } from './journal-entry.js';
import type { ChaosMark } from './seeded-chaos.js';
import { StreamSummary } from './stream-summary.js';

/** What every record of one journal shares. */
export interface RecordContext {
  /** `req_` and the first 16 of the 32 hex digits of each request id; a record's `seq` gives the rest. */
  readonly idPrefix: string;
  /** Longest body (characters) kept whole. */
  readonly maxBodyChars: number;
  clock: Clock;
  /** Told how many characters a record's kept bodies grew (or shrank) by. */
  grew(record: JournalRecord, chars: number): void;
}

const SESSION_IN_PATH = /\/(sess_[A-Za-z0-9]+)(?:\/|$)/;

// Bits of JournalRecord.#bits.
const STREAMED = 1;
const COMPLETE = 2;
const KEPT = 4;
const RESPONSE_BODY = 8;
const REQUEST_FORM_SHIFT = 4;
const RESPONSE_FORM_SHIFT = 7;
const FORM_MASK = 7;

/**
 * One request in the journal, as the testing toolkit fills it while the request runs: it is the
 * request's {@link RequestHooks} and the {@link StreamObserver} of a streamed reply, so recording
 * costs no object beyond it. It keeps raw data (the URL, the body values the core read and
 * rendered, a stream's summary); {@link toEntry} makes the {@link JournalEntry} a reader gets.
 */
export class JournalRecord implements RequestHooks, StreamObserver {
  durationMs: number | undefined = undefined;
  user: string | undefined = undefined;
  fault: Fault | undefined = undefined;
  chaos: ChaosMark | undefined = undefined;
  /** The request's `traceparent` header, if any. */
  traceparent: string | undefined = undefined;
  pacer: EventPacer | undefined = undefined;
  /** The request's scope (a request hook: the core reads its sessions and model through it). */
  scope: ConversationScope | undefined = undefined;
  /** The response status; -1 until there is one, 0 for a dropped connection. */
  status = -1;
  #bits = KEPT;
  #request: unknown = undefined;
  #requestChars = 0;
  #response: unknown = undefined;
  #responseChars = 0;
  #stream: StreamSummary | undefined = undefined;
  #violations: ProtocolViolation[] | undefined = undefined;
  #violationCount = 0;

  constructor(
    readonly seq: number,
    readonly time: number,
    readonly method: string,
    readonly url: string,
    private readonly context: RecordContext,
  ) {}

  /** `req_` and 32 hex digits: the journal's random prefix, then `seq`. */
  get requestId(): string {
    return this.context.idPrefix + this.seq.toString(16).padStart(16, '0');
  }

  get streamed(): boolean {
    return (this.#bits & STREAMED) !== 0;
  }

  /** Whether a buffered response body was recorded (the core told it, or the toolkit read it). */
  get hasResponseBody(): boolean {
    return (this.#bits & RESPONSE_BODY) !== 0;
  }

  /** Characters of bodies this record keeps (what the journal's byte limit counts). */
  get chars(): number {
    return this.#requestChars + this.#responseChars + (this.#stream?.textChars ?? 0);
  }

  /** False once the journal dropped or cleared it; its later changes then count for nothing. */
  get kept(): boolean {
    return (this.#bits & KEPT) !== 0;
  }

  forget(): void {
    this.#bits &= ~KEPT;
  }

  get path(): string {
    return splitUrl(this.url).path;
  }

  /** The session the request is about: from the path, or the id a create returned. */
  get sessionId(): string | undefined {
    return (
      SESSION_IN_PATH.exec(this.path)?.[1] ?? sessionIdOf(this.#form(RESPONSE_FORM_SHIFT), this.#response)
    );
  }

  // RequestHooks: the core tells the request's record what happens.

  onUser(user: string): void {
    this.user = user;
  }

  onBody(text: string, truncated: boolean, value?: unknown): void {
    const kept = keepBody(text, this.context.maxBodyChars, {
      value,
      hasValue: value !== undefined,
      truncated,
    });
    this.#request = kept.data;
    this.#setForm(REQUEST_FORM_SHIFT, kept.form);
    this.#count(kept.chars - this.#requestChars);
    this.#requestChars = kept.chars;
  }

  onResponseBody(text: string, value: unknown, truncated = false): void {
    this.#keepResponse(text, { value, hasValue: true, truncated });
  }

  onStreamed(): void {
    this.#bits |= STREAMED;
  }

  onViolation(violation: ProtocolViolation): void {
    this.#violationCount++;
    this.#violations ??= [];
    if (this.#violations.length < MAX_VIOLATIONS_PER_ENTRY) this.#violations.push(violation);
  }

  get streamObserver(): StreamObserver {
    return this;
  }

  // StreamObserver: the events of a streamed reply as they are written.

  onEvent(event: Record<string, unknown> | string): void {
    this.#stream ??= new StreamSummary(this.context.maxBodyChars);
    const chars = this.#stream.add(event, this.context.clock.now() - this.time);
    if (chars > 0 && this.kept) this.context.grew(this, chars);
  }

  onEnd(complete: boolean): void {
    this.#stream ??= new StreamSummary(this.context.maxBodyChars);
    this.#stream.finish();
    this.#bits = complete ? this.#bits | COMPLETE : this.#bits & ~COMPLETE;
    this.durationMs = this.context.clock.now() - this.time;
  }

  // What the toolkit records around the core.

  /** A buffered response whose text the toolkit read (the core did not tell it). */
  responseText(text: string): void {
    this.#keepResponse(text, { json: true });
  }

  /** The response's status; a buffered one is complete, a stream once its end was written. */
  respond(status: number, complete: boolean): void {
    this.status = status;
    if (complete) this.#bits |= COMPLETE;
  }

  /** The entry a reader gets: fresh objects, bodies copied, so later changes do not show. */
  toEntry(): JournalEntry {
    const { path, query } = splitUrl(this.url);
    const entry: JournalEntry = {
      seq: this.seq,
      requestId: this.requestId,
      time: this.time,
      method: this.method,
      path,
      query,
    };
    if (this.durationMs !== undefined) entry.durationMs = this.durationMs;
    if (this.user !== undefined) entry.user = this.user;
    const sessionId = this.sessionId;
    if (sessionId !== undefined) entry.sessionId = sessionId;
    if (this.traceparent !== undefined) entry.traceparent = this.traceparent;
    const body = shownBody(this.#form(REQUEST_FORM_SHIFT), this.#request);
    if (body !== undefined) {
      entry.body = body.body;
      if (body.bodyTruncated) entry.bodyTruncated = true;
    }
    if (this.fault !== undefined) entry.fault = structuredClone(this.fault);
    if (this.chaos !== undefined) entry.chaos = { ...this.chaos };
    if (this.status >= 0) entry.response = this.#responseEntry();
    if (this.#violations !== undefined) {
      entry.violations = this.#violations.map((violation) => ({ ...violation }));
      entry.violationCount = this.#violationCount;
    }
    return entry;
  }

  #responseEntry(): JournalResponse {
    const complete = (this.#bits & COMPLETE) !== 0;
    if (this.status === 0) return { status: 0, complete: false };
    const stream = this.#stream;
    if (this.streamed) {
      const response: JournalResponse = {
        status: this.status,
        events: stream?.events ?? 0,
        text: stream?.text ?? '',
        complete,
      };
      if (stream?.textTruncated) response.textTruncated = true;
      if (stream !== undefined) {
        response.eventTimes = stream.timeline.times();
        if (stream.timeline.truncated) response.eventTimesTruncated = true;
      }
      if (stream?.stopReason !== undefined) response.stopReason = stream.stopReason;
      if (stream?.pendingTools !== undefined) response.pendingTools = [...stream.pendingTools];
      if (stream?.error !== undefined) response.error = { ...stream.error };
      return response;
    }
    const shown = shownBody(this.#form(RESPONSE_FORM_SHIFT), this.#response);
    return { status: this.status, ...shown, ...summarizeBody(shown?.body), complete: true };
  }

  #keepResponse(
    text: string,
    options: { value?: unknown; hasValue?: boolean; json?: boolean; truncated?: boolean },
  ): void {
    const kept = keepBody(text, this.context.maxBodyChars, options);
    this.#response = kept.data;
    this.#bits |= RESPONSE_BODY;
    this.#setForm(RESPONSE_FORM_SHIFT, kept.form);
    this.#count(kept.chars - this.#responseChars);
    this.#responseChars = kept.chars;
  }

  #form(shift: number): BodyForm {
    return ((this.#bits >> shift) & FORM_MASK) as BodyForm;
  }

  #setForm(shift: number, form: BodyForm): void {
    this.#bits = (this.#bits & ~(FORM_MASK << shift)) | (form << shift);
  }

  /** Tells the journal that the kept bodies grew by `chars` (negative: shrank). */
  #count(chars: number): void {
    if (chars !== 0 && this.kept) this.context.grew(this, chars);
  }
}

/** The path and the query (with its `?`, or `""`) of an absolute URL. */
export function splitUrl(url: string): { path: string; query: string } {
  const scheme = url.indexOf('://');
  let start = url.indexOf('/', scheme === -1 ? 0 : scheme + 3);
  if (start === -1) start = url.length;
  let end = url.indexOf('#', start);
  if (end === -1) end = url.length;
  const mark = url.indexOf('?', start);
  const pathEnd = mark === -1 || mark > end ? end : mark;
  const path = start === url.length ? '/' : url.slice(start, pathEnd);
  const query = pathEnd === end || pathEnd + 1 === end ? '' : url.slice(pathEnd, end);
  return { path, query };
}
