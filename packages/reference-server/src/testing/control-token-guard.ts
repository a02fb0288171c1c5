import { connectionOf } from '../http/connection.js';
import type { Clock } from '../time/clock.js';
import { CONTROL_TOKEN_HEADER, type ControlTokenCheck } from './control-access.js';

/** Wrong control tokens from one client answered at once; later ones are slowed down. */
export const CONTROL_TOKEN_MAX_FAILURES = 10;
/** The wait of the first slowed wrong token; each further one waits twice as long. */
export const CONTROL_TOKEN_SLOWDOWN_MS = 1_000;
/** The longest wait of one wrong token. */
export const CONTROL_TOKEN_MAX_SLOWDOWN_MS = 60_000;
/** A client that sent no wrong token for this long starts again from none. */
export const CONTROL_TOKEN_FORGET_MS = 10 * 60_000;
/** Clients remembered at once; the one heard from least recently is forgotten first. */
const MAX_CLIENTS = 1_024;

interface ClientRecord {
  failures: number;
  /** When the last wrong token came (clock ms). */
  lastFailureAt: number;
  /** When the client's slowed wrong tokens have all been answered: the next one waits past it. */
  answeredUntil: number;
}

/**
 * Slows down guessing the control token without ever refusing the right one. Every token is
 * compared (in constant time): the right one is valid at once, whatever came before. A client
 * (its address over a socket; all in-process callers are one client) gets its first
 * {@link CONTROL_TOKEN_MAX_FAILURES} wrong tokens answered at once; each later one waits
 * {@link CONTROL_TOKEN_SLOWDOWN_MS}, twice as long each time up to {@link CONTROL_TOKEN_MAX_SLOWDOWN_MS},
 * and its waits run one after another, so parallel guesses are no faster than one by one. The
 * count is forgotten after {@link CONTROL_TOKEN_FORGET_MS} without a wrong token (not by the right
 * one: a guesser on the same address as a test run would get a fresh start from each of the test's
 * requests). Time is the server's clock.
 */
export class ControlTokenGuard {
  readonly #clients = new Map<string, ClientRecord>();
  readonly #closed = new AbortController();

  constructor(
    private readonly matches: (request: Request) => boolean,
    private readonly clock: Clock,
  ) {}

  check(request: Request): ControlTokenCheck {
    if (!request.headers.has(CONTROL_TOKEN_HEADER)) return { kind: 'absent' };
    if (this.matches(request)) return { kind: 'valid' };
    return { kind: 'invalid', delayMs: this.#fail(connectionOf(request)?.remoteAddress ?? 'in-process') };
  }

  /**
   * {@link check}, answered once a wrong token's wait is over (or the client left, or the server
   * closed): what the control routes and the fault header go by.
   */
  async verify(request: Request): Promise<ControlTokenCheck> {
    const check = this.check(request);
    if (check.kind !== 'invalid' || check.delayMs === 0) return check;
    const signal = AbortSignal.any([request.signal, this.#closed.signal]);
    await this.clock.sleep(check.delayMs, signal).catch(() => {});
    return check;
  }

  /** Forgets every client's wrong tokens (a full `server.reset()`); waits already begun run out. */
  clear(): void {
    this.#clients.clear();
  }

  /** Ends every wait at once (the server closes): the wrong tokens are answered now. */
  close(): void {
    this.#closed.abort();
  }

  /** Counts a wrong token; returns how long its answer waits. */
  #fail(client: string, now = this.clock.now()): number {
    let record = this.#clients.get(client);
    if (record === undefined || now - record.lastFailureAt >= CONTROL_TOKEN_FORGET_MS) {
      record = { failures: 0, lastFailureAt: now, answeredUntil: now };
    }
    // Re-inserted, so the map's first entry is the client heard from least recently.
    this.#clients.delete(client);
    this.#clients.set(client, record);
    if (this.#clients.size > MAX_CLIENTS) {
      const oldest = this.#clients.keys().next().value;
      if (oldest !== undefined) this.#clients.delete(oldest);
    }
    record.failures++;
    record.lastFailureAt = now;
    const slowed = record.failures - CONTROL_TOKEN_MAX_FAILURES;
    if (slowed <= 0) return 0;
    const wait = Math.min(CONTROL_TOKEN_SLOWDOWN_MS * 2 ** (slowed - 1), CONTROL_TOKEN_MAX_SLOWDOWN_MS);
    record.answeredUntil = Math.max(now, record.answeredUntil) + wait;
    return record.answeredUntil - now;
  }
}
