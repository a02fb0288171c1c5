import { type HeartbeatLease, LEASE_TOKEN_HEADER, LeaseTokenSchema } from '@parley/protocol';
import type { Context } from 'hono';
import { HttpError } from '../http-error.js';
import type { AppEnv } from './server-context.js';

/**
 * The lease token of a request (the lease extension's `parley-lease` header), or undefined when it
 * has none. A malformed token is `400 invalid_request` naming the header.
 */
export function leaseTokenOf(c: Context<AppEnv>): string | undefined {
  const raw = c.req.header(LEASE_TOKEN_HEADER);
  if (raw === undefined) return undefined;
  const parsed = LeaseTokenSchema.safeParse(raw);
  if (parsed.success) return parsed.data;
  throw new HttpError('invalid_request', `Header ${LEASE_TOKEN_HEADER} ${parsed.error.issues[0]?.message}`, {
    details: {
      issues: [
        { path: `header.${LEASE_TOKEN_HEADER}`, message: parsed.error.issues[0]?.message ?? 'invalid' },
      ],
    },
  });
}

/** The header a beat with a lease token is answered with: the lease, `key=value` pairs. */
export const LEASE_STATE_HEADER = 'parley-lease-state';

/** `attempt=2, leaseExpiresAt=..., heartbeatTimeoutMs=..., deadlineAt=..., now=...` (the token is the request's). */
export function formatLeaseState(lease: HeartbeatLease): string {
  const { attempt, leaseExpiresAt, heartbeatTimeoutMs, deadlineAt, now } = lease;
  return Object.entries({ attempt, leaseExpiresAt, heartbeatTimeoutMs, deadlineAt, now })
    .map(([key, value]) => `${key}=${value}`)
    .join(', ');
}
