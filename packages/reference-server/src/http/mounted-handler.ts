import { REQUEST_ID_HEADER } from '@parley/protocol';
import type { Hono } from 'hono';
import { cors } from 'hono/cors';
import type { AppEnv } from './server-context.js';
import { tokenAuth, type User } from './token-auth.js';

/**
 * A web-standard handler the core serves under a path prefix, behind the same request id, CORS and
 * bearer authentication as `/v1`: the core's port for endpoints it does not know (the composition
 * root fills it, e.g. with the MCP providers of `extensions/`).
 */
export interface MountedHandler {
  /** The prefix, e.g. `/mcp`: the handler answers it and every path below it. */
  prefix: string;
  /** Answers one authenticated request; `user` is the name of the user whose token it carried. */
  fetch: (request: Request, context: { user: string }) => Promise<Response>;
  /** Request headers a browser may send besides `authorization` and `content-type` (CORS). */
  corsAllowHeaders?: readonly string[];
  /** Response headers a browser may read besides the request id (CORS). */
  corsExposeHeaders?: readonly string[];
}

const PREFIX = /^(?:\/[A-Za-z0-9._~-]+)+$/;

/**
 * Serves `mount` in `app`: CORS (unless `cors` is `false`), bearer authentication of `users` (a
 * missing or unknown token is `401 unauthorized`, as on `/v1`), then the handler.
 *
 * @throws TypeError for a prefix that is not a path of one or more segments without a trailing `/`,
 * or that is `/v1` or lies under it.
 */
export function registerMountedHandler(
  app: Hono<AppEnv>,
  mount: MountedHandler,
  options: { users: readonly User[]; cors: boolean | string | readonly string[] },
): void {
  const { prefix } = mount;
  if (!PREFIX.test(prefix) || prefix === '/v1' || prefix.startsWith('/v1/')) {
    throw new TypeError(`Cannot mount a handler at ${JSON.stringify(prefix)}: use a path like "/mcp"`);
  }
  const path = `${prefix}/*`; // Hono's `/x/*` matches `/x` too.
  if (options.cors !== false) {
    const origin = options.cors;
    app.use(
      path,
      cors({
        origin: origin === true ? '*' : typeof origin === 'string' ? origin : [...origin],
        allowMethods: ['GET', 'POST', 'DELETE', 'OPTIONS'],
        allowHeaders: ['authorization', 'content-type', ...(mount.corsAllowHeaders ?? [])],
        exposeHeaders: [REQUEST_ID_HEADER, ...(mount.corsExposeHeaders ?? [])],
        maxAge: 600,
      }),
    );
  }
  app.use(path, tokenAuth(options.users));
  app.all(path, (c) => mount.fetch(c.req.raw, { user: c.get('user') }));
}
