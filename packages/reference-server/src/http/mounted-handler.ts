import type { Hono } from 'hono';
import type { AppEnv } from './server-context.js';
import { tokenAuth, type User } from './token-auth.js';

/**
 * A web-standard handler the core serves under a path prefix, behind the same request id and bearer
 * authentication as `/v1` (CORS is the edge policy's, for every route): the core's port for endpoints it does not know (the composition
 * root fills it, e.g. with the MCP providers of `extensions/`).
 */
export interface MountedHandler {
  /** The prefix, e.g. `/mcp`: the handler answers it and every path below it. */
  prefix: string;
  /** Answers one authenticated request; `user` is the name of the user whose token it carried. */
  fetch: (request: Request, context: { user: string }) => Promise<Response>;
}

const PREFIX = /^(?:\/[A-Za-z0-9._~-]+)+$/;

/**
 * Serves `mount` in `app`: bearer authentication of `users` (a
 * missing or unknown token is `401 unauthorized`, as on `/v1`), then the handler.
 *
 * @throws TypeError for a prefix that is not a path of one or more segments without a trailing `/`,
 * or that is `/v1` or lies under it.
 */
export function registerMountedHandler(
  app: Hono<AppEnv>,
  mount: MountedHandler,
  users: readonly User[],
): void {
  const { prefix } = mount;
  if (!PREFIX.test(prefix) || prefix === '/v1' || prefix.startsWith('/v1/')) {
    throw new TypeError(`Cannot mount a handler at ${JSON.stringify(prefix)}: use a path like "/mcp"`);
  }
  const path = `${prefix}/*`; // Hono's `/x/*` matches `/x` too.
  app.use(path, tokenAuth(users));
  app.all(path, (c) => mount.fetch(c.req.raw, { user: c.get('user') }));
}
