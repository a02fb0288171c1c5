// The lease extension (docs/protocol.md, "Extension: tool-call leases") as the SDK speaks it.
import { ConflictError } from '../../errors/index.js';

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
