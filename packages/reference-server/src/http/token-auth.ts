import type { Context, MiddlewareHandler } from 'hono';
import { bearerAuth } from 'hono/bearer-auth';
import { HttpError } from '../http-error.js';
import { constantTimeEqual } from '../utils/constant-time-equal.js';
import { errorReply } from './json-reply.js';
import type { AppEnv } from './server-context.js';

/** A user of the reference server and the bearer token that authenticates it. */
export interface User {
  name: string;
  token: string;
}

const encoder = new TextEncoder();

/** RFC 6750 `b64token`: the only tokens an `Authorization: Bearer` header can carry. */
const BEARER_TOKEN = /^[A-Za-z0-9._~+/-]+=*$/;

/**
 * Bearer-token authentication (hono's `bearerAuth`): sets `c.get('user')` and tells the request's
 * `onUser` hook. The presented token is compared with every user's token in constant time, none
 * skipped, so the time taken says nothing about which bytes matched or which user it was. A
 * missing, malformed or unknown credential is `401 unauthorized` with `WWW-Authenticate: Bearer`.
 *
 * @throws TypeError when a user's token is not a bearer token (RFC 6750: letters, digits and
 * `-._~+/`, then optional `=`), since no request could ever present it.
 */
export function tokenAuth(users: readonly User[]): MiddlewareHandler<AppEnv> {
  const userOf = tokenMatcher(users);
  return bearerAuth<AppEnv>({
    verifyToken: (token, c) => {
      const user = userOf(token);
      if (user === undefined) return false;
      c.set('user', user);
      c.env.onUser?.(user);
      return true;
    },
    noAuthenticationHeader: { message: (c) => unauthorized(c, 'The Authorization header is missing') },
    invalidAuthenticationHeader: {
      message: (c) => unauthorized(c, 'The Authorization header must be "Bearer <token>"'),
    },
    invalidToken: { message: (c) => unauthorized(c, 'The bearer token is not valid') },
  });
}

/**
 * The user a bearer token belongs to, or undefined: compared with every user's token in constant
 * time, none skipped, hashing nothing.
 *
 * @throws TypeError when a user's token is not a bearer token (RFC 6750).
 */
export function tokenMatcher(users: readonly User[]): (token: string) => string | undefined {
  for (const user of users) {
    if (!BEARER_TOKEN.test(user.token)) {
      throw new TypeError(
        `User ${JSON.stringify(user.name)}: the token must be a bearer token (RFC 6750: letters, digits and -._~+/, then optional =)`,
      );
    }
  }
  const known = users.map((user) => ({ name: user.name, token: encoder.encode(user.token) }));
  return (token) => {
    const presented = encoder.encode(token);
    let user: string | undefined;
    for (const candidate of known) {
      if (constantTimeEqual(presented, candidate.token) && user === undefined) user = candidate.name;
    }
    return user;
  };
}

const BEARER_HEADER = /^Bearer +([A-Za-z0-9._~+/-]+=*) *$/i;

/**
 * Whether an `Authorization` header carries a user's bearer token: the check of `tokenAuth`
 * without a Hono context, for a wrapper that must know before the core runs (the testing toolkit
 * applies faults only to authenticated requests).
 */
export function bearerMatcher(users: readonly User[]): (authorization: string | null) => boolean {
  const userOf = tokenMatcher(users);
  return (authorization) => {
    const token = authorization === null ? undefined : BEARER_HEADER.exec(authorization)?.[1];
    return token !== undefined && userOf(token) !== undefined;
  };
}

function unauthorized(c: Context<AppEnv>, message: string): Response {
  return errorReply(
    c.env,
    new HttpError('unauthorized', message, { headers: { 'www-authenticate': 'Bearer' } }),
  );
}
