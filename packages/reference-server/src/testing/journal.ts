import type { Clock } from '../time/clock.js';
import { systemClock } from '../time/system-clock.js';
import { checkOptions } from '../utils/check-options.js';
import { JOURNAL_FILTER_KEYS, type JournalEntry, type JournalFilter } from './journal-entry.js';
import { JournalRecord, type RecordContext } from './journal-record.js';
import { matchesPath } from './path-pattern.js';

export type { JournalEntry, JournalFilter, JournalResponse } from './journal-entry.js';

/** Default number of entries kept; older ones are dropped first. */
export const DEFAULT_JOURNAL_LIMIT = 1000;
/** Default characters of bodies (request, response, a stream's text) the journal keeps in all. */
export const DEFAULT_JOURNAL_MAX_BYTES = 4 * 1024 * 1024;
/** Default characters of one body kept whole; a longer body is kept truncated to them. */
export const DEFAULT_JOURNAL_MAX_BODY_BYTES = 64 * 1024;

/**
 * How much the journal keeps. Sizes count characters of body text (UTF-16 code units: one per byte
 * for ASCII JSON).
 */
export interface JournalLimits {
  /** Entries kept; the oldest go first. `0` keeps none (and records nothing). Default 1000. */
  entries?: number;
  /**
   * Characters of bodies kept in all entries together; the oldest entries go first to stay under
   * it (the newest one always stays). Default 4 MiB.
   */
  maxBytes?: number;
  /** Characters of one body (or of a stream's text) kept; longer ones are kept truncated. Default 64 KiB. */
  maxBodyBytes?: number;
}

/**
 * The requests and replies a server saw, oldest first, for tests to assert on. A ring bounded in
 * entries and in the characters of the bodies it keeps; {@link dropped} counts the entries it let
 * go to stay within them, `bodyTruncated` / `textTruncated` mark what it kept only the start of.
 * It records cheaply (the values the server read and wrote, shared, and a stream's summary) and
 * builds the entries a reader asks for.
 */
export class Journal {
  /** Entries kept at most. */
  readonly limit: number;
  /** Characters of bodies kept at most, in all entries together. */
  readonly maxBytes: number;
  /** Characters of one body kept whole. */
  readonly maxBodyBytes: number;
  #records: Array<JournalRecord | undefined> = [];
  #head = 0;
  #seq = 0;
  #chars = 0;
  #dropped = 0;
  readonly #context: RecordContext;

  /** @param limits the limits, or (as before) the number of entries kept. */
  constructor(limits: number | JournalLimits = {}) {
    const { entries, maxBytes, maxBodyBytes } = typeof limits === 'number' ? { entries: limits } : limits;
    this.limit = checkLimit('entries', entries ?? DEFAULT_JOURNAL_LIMIT);
    this.maxBytes = checkLimit('maxBytes', maxBytes ?? DEFAULT_JOURNAL_MAX_BYTES);
    this.maxBodyBytes = checkLimit('maxBodyBytes', maxBodyBytes ?? DEFAULT_JOURNAL_MAX_BODY_BYTES);
    const hex = crypto
      .getRandomValues(new Uint8Array(8))
      .reduce((id, byte) => id + byte.toString(16).padStart(2, '0'), '');
    this.#context = {
      idPrefix: `req_${hex}`,
      maxBodyChars: this.maxBodyBytes,
      clock: systemClock,
      grew: (record, chars) => {
        this.#chars += chars;
        if (chars > 0) this.#trim(record);
      },
    };
  }

  /** Entries matching `filter`, oldest first. They are snapshots: later changes do not show. */
  entries(filter: JournalFilter = {}): JournalEntry[] {
    checkOptions(filter, JOURNAL_FILTER_KEYS, 'journal.entries()');
    const entries: JournalEntry[] = [];
    for (let i = this.#head; i < this.#records.length; i++) {
      const record = this.#records[i];
      if (record !== undefined && matches(record, filter)) entries.push(record.toEntry());
    }
    return entries;
  }

  /** The newest entry matching `filter`. */
  last(filter: JournalFilter = {}): JournalEntry | undefined {
    for (let i = this.#records.length - 1; i >= this.#head; i--) {
      const record = this.#records[i];
      if (record !== undefined && matches(record, filter)) return record.toEntry();
    }
    return undefined;
  }

  /** Forgets every entry (or those of one user). */
  clear(filter: { user?: string } = {}): void {
    const keep: JournalRecord[] = [];
    for (let i = this.#head; i < this.#records.length; i++) {
      const record = this.#records[i];
      if (record === undefined) continue;
      if (filter.user !== undefined && record.user !== filter.user) keep.push(record);
      else {
        this.#chars -= record.chars;
        record.forget();
      }
    }
    this.#records = keep;
    this.#head = 0;
  }

  /** Entries kept now. */
  get size(): number {
    return this.#records.length - this.#head;
  }

  /** Characters of bodies kept now, in all entries together (at most {@link maxBytes}, but for the newest entry). */
  get bytes(): number {
    return this.#chars;
  }

  /** Entries dropped to stay within {@link limit} and {@link maxBytes} since the server started. */
  get dropped(): number {
    return this.#dropped;
  }

  /**
   * Starts the record of one request (the testing toolkit fills it while the request runs).
   * Undefined when the journal keeps no entries.
   * @internal
   */
  open(method: string, url: string, clock: Clock): JournalRecord | undefined {
    if (this.limit === 0) return undefined;
    this.#context.clock = clock;
    const record = new JournalRecord(++this.#seq, clock.now(), method, url, this.#context);
    this.#records.push(record);
    this.#trim(record);
    return record;
  }

  /** Drops the oldest entries while over a limit; `newest` (the one that grew) always stays. */
  #trim(newest: JournalRecord): void {
    while (this.size > this.limit || (this.#chars > this.maxBytes && this.size > 1)) {
      const oldest = this.#records[this.#head];
      if (oldest === newest && this.size > this.limit) break;
      this.#records[this.#head++] = undefined;
      if (oldest === undefined) continue;
      this.#chars -= oldest.chars;
      oldest.forget();
      this.#dropped++;
    }
    // Let go of the slots before the head now and then, not at every drop.
    if (this.#head >= 1024 && this.#head * 2 >= this.#records.length) {
      this.#records = this.#records.slice(this.#head);
      this.#head = 0;
    }
  }
}

function checkLimit(name: string, value: number): number {
  if (!Number.isSafeInteger(value) || value < 0) {
    throw new TypeError(`Journal ${name} must be an integer >= 0, got ${value}`);
  }
  return value;
}

function matches(record: JournalRecord, filter: JournalFilter): boolean {
  return (
    (filter.method === undefined || record.method === filter.method.toUpperCase()) &&
    (filter.user === undefined || record.user === filter.user) &&
    (filter.path === undefined || matchesPath(filter.path, record.path)) &&
    (filter.sessionId === undefined || record.sessionId === filter.sessionId)
  );
}
