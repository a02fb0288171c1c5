// The lease extension (docs/protocol.md, "Extension: tool-call leases") as the SDK speaks it.
import { ConflictError } from '../../errors/index.js';
import type { HeartbeatLease } from '../../wire/index.js';

/** The header that carries a worker's lease token on a send, a heartbeat and a report. */
export const LEASE_TOKEN_HEADER = 'parley-lease';

/**
 * A new lease token: 22 characters of base64url from 16 random bytes. `getRandomValues`, not
 * `randomUUID`: browsers offer the latter in secure contexts only.
 */
export function newLeaseToken(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  let text = '';
  for (const byte of bytes) text += String.fromCharCode(byte);
  return btoa(text).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/** The request headers that carry `token`; none without one. */
export function leaseHeaders(token: string | undefined): { headers: Record<string, string> } | undefined {
  return token === undefined ? undefined : { headers: { [LEASE_TOKEN_HEADER]: token } };
}

/** True for the lease extension's `409 tool_call_leased`: another worker's lease is live. */
export function isLeasedError(error: unknown): error is ConflictError {
  return error instanceof ConflictError && error.code === 'tool_call_leased';
}

/** The header a server with the extension answers a beat with: the lease as `key=value` pairs. */
export const LEASE_STATE_HEADER = 'parley-lease-state';

/**
 * The lease a beat's answer names, or undefined when the server sent none (no extension) or one
 * this SDK cannot read (then the beat counts as a plain one).
 */
export function leaseFromHeader(leaseToken: string, headers: Headers): HeartbeatLease | undefined {
  const value = headers.get(LEASE_STATE_HEADER);
  if (value === null) return undefined;
  const fields = new Map<string, number>();
  for (const pair of value.split(',')) {
    const [key, raw] = pair.split('=');
    if (key !== undefined && raw !== undefined) fields.set(key.trim(), Number(raw.trim()));
  }
  const read = (key: string) => {
    const n = fields.get(key);
    return n !== undefined && Number.isFinite(n) ? n : undefined;
  };
  const attempt = read('attempt');
  const leaseExpiresAt = read('leaseExpiresAt');
  const heartbeatTimeoutMs = read('heartbeatTimeoutMs');
  const deadlineAt = read('deadlineAt');
  const now = read('now');
  if (
    attempt === undefined ||
    leaseExpiresAt === undefined ||
    heartbeatTimeoutMs === undefined ||
    deadlineAt === undefined ||
    now === undefined
  ) {
    return undefined;
  }
  return { leaseToken, attempt, leaseExpiresAt, heartbeatTimeoutMs, deadlineAt, now };
}

/**
 * The lease a beat's answer names: read from the response's header when the transport's promise
 * gives it (`withResponse`, as `client.tools.heartbeat` does) and the beat carried a token.
 */
export async function leaseFromAnswer(
  sent: PromiseLike<unknown>,
  leaseToken: string | undefined,
): Promise<HeartbeatLease | undefined> {
  const withResponse = (sent as { withResponse?: () => Promise<{ response: Response }> }).withResponse;
  if (leaseToken === undefined || typeof withResponse !== 'function') {
    await sent;
    return undefined;
  }
  const { response } = await withResponse.call(sent);
  return leaseFromHeader(leaseToken, response.headers);
}
