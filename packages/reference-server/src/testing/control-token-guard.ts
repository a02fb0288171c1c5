import { connectionOf } from '../http/connection.js';
import type { Clock } from '../time/clock.js';
import { CONTROL_TOKEN_HEADER, type ControlTokenCheck } from './control-access.js';

/** Wrong control tokens in a row from one client before it is locked out. */
export const CONTROL_TOKEN_MAX_FAILURES = 10;
/** The first lock-out; each further one, after another wrong token, lasts twice as long. */
export const CONTROL_TOKEN_LOCKOUT_MS = 1_000;
/** The longest lock-out. */
export const CONTROL_TOKEN_MAX_LOCKOUT_MS = 60_000;
/** Clients remembered at once; the one heard from least recently is forgotten first. */
const MAX_CLIENTS = 1_024;

interface ClientRecord {
  failures: number;
  lockouts: number;
  lockedUntil: number;
}

/**
 * Slows down guessing the control token: after {@link CONTROL_TOKEN_MAX_FAILURES} wrong tokens in
 * a row, a client (its address over a socket; all in-process callers are one client) is locked
 * out for {@link CONTROL_TOKEN_LOCKOUT_MS}, doubling with each wrong token after a lock-out up to
 * {@link CONTROL_TOKEN_MAX_LOCKOUT_MS}. While locked out, its token is not even compared, so a
 * right guess tells it nothing. The right token clears its record. Time is the server's clock.
 */
export class ControlTokenGuard {
  readonly #clients = new Map<string, ClientRecord>();

  constructor(
    private readonly matches: (request: Request) => boolean,
    private readonly clock: Clock,
  ) {}

  check(request: Request): ControlTokenCheck {
    if (!request.headers.has(CONTROL_TOKEN_HEADER)) return { kind: 'absent' };
    const client = connectionOf(request)?.remoteAddress ?? 'in-process';
    const record = this.#clients.get(client);
    const now = this.clock.now();
    if (record !== undefined && record.lockedUntil > now) {
      return { kind: 'locked', retryAfterMs: record.lockedUntil - now };
    }
    if (this.matches(request)) {
      if (record !== undefined) this.#clients.delete(client);
      return { kind: 'valid' };
    }
    this.#fail(client, record, now);
    return { kind: 'invalid' };
  }

  /** Forgets every client's wrong tokens and lock-outs (a full `server.reset()`). */
  clear(): void {
    this.#clients.clear();
  }

  #fail(client: string, found: ClientRecord | undefined, now: number): void {
    const record = found ?? { failures: 0, lockouts: 0, lockedUntil: 0 };
    // Re-inserted, so the map's first entry is the client heard from least recently.
    this.#clients.delete(client);
    this.#clients.set(client, record);
    if (this.#clients.size > MAX_CLIENTS) {
      const oldest = this.#clients.keys().next().value;
      if (oldest !== undefined) this.#clients.delete(oldest);
    }
    record.failures++;
    // The first lock-out comes after MAX_FAILURES; each later one after a single wrong token.
    if (record.lockouts === 0 && record.failures < CONTROL_TOKEN_MAX_FAILURES) return;
    const lockout = Math.min(CONTROL_TOKEN_LOCKOUT_MS * 2 ** record.lockouts, CONTROL_TOKEN_MAX_LOCKOUT_MS);
    record.lockouts++;
    record.lockedUntil = now + lockout;
  }
}
