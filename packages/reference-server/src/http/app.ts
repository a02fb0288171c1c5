import { Hono } from 'hono';
import { HTTPException } from 'hono/http-exception';
import { HttpError, isHttpError } from '../http-error.js';
import { errorReply, jsonReply } from './json-reply.js';
import { type MountedHandler, registerMountedHandler } from './mounted-handler.js';
import type { RequestHooks } from './request-hooks.js';
import { requestIdMiddleware } from './request-id.js';
import { routeNotFound } from './route-not-found.js';
import { registerHealthRoute } from './routes/health-route.js';
import { registerMessageRoutes } from './routes/message-routes.js';
import { registerRewindRoute } from './routes/rewind-route.js';
import { registerSessionRoutes } from './routes/session-routes.js';
import { registerToolRoutes } from './routes/tool-routes.js';
import type { AppEnv, ServerContext } from './server-context.js';
import { tokenAuth, type User } from './token-auth.js';

/** Options of {@link createProtocolApp}. */
export interface ProtocolAppOptions {
  /** Users and their bearer tokens. */
  users: readonly User[];
  /** Handlers served under their own path prefix, behind the same auth as `/v1` (e.g. `/mcp`). */
  mounts?: readonly MountedHandler[];
  /** What to add to the `route_not_found` of a path (how to reach it), if anything. */
  routeHint?: (pathname: string) => string | undefined;
  /** `GET /readyz`: undefined when ready, else why not. Default: always ready. */
  ready?: () => Promise<string | undefined>;
}

/** The protocol's core: every `/v1` endpoint as one web-standard fetch. */
export interface ProtocolApp {
  /**
   * Handles one request; `hooks` let a wrapper (the testing toolkit) observe and pace it. Answers
   * every failure with a JSON error response. An arrow property: pass it around freely.
   */
  readonly fetch: (request: Request, hooks?: RequestHooks) => Promise<Response>;
}

const NO_HOOKS: RequestHooks = Object.freeze({});

/**
 * The Hono app of the protocol: request id, the `/healthz` readiness check, bearer authentication
 * for `/v1`, the routes of each resource, and JSON errors for unknown routes and failures. CORS and
 * the host check sit in front of it, in `withEdgePolicy`. Knows nothing of the testing
 * toolkit: a wrapper reaches a request only through its {@link RequestHooks}.
 */
export function createProtocolApp(ctx: ServerContext, options: ProtocolAppOptions): ProtocolApp {
  const app = new Hono<AppEnv>();
  app.use('*', ...requestIdMiddleware());
  // The OpenAPI document, no auth. Imported on first request: bundles that never serve it stay small.
  let openApi: Promise<object> | undefined;
  app.get('/openapi.json', async (c) => {
    openApi ??= import('@parley/protocol/openapi').then((m) => m.createOpenApiDocument());
    return jsonReply(c, await openApi, 200);
  });
  // Outside /v1: no token. Registered before the protocol's routes.
  registerHealthRoute(app, options.ready);
  app.use('/v1/*', tokenAuth(options.users));
  for (const mount of options.mounts ?? []) registerMountedHandler(app, mount, options.users);
  registerSessionRoutes(app, ctx);
  registerRewindRoute(app, ctx);
  registerMessageRoutes(app, ctx);
  registerToolRoutes(app, ctx);
  app.notFound((c) => {
    const pathname = new URL(c.req.url).pathname;
    return errorReply(c.env, routeNotFound(c.req.method, pathname, options.routeHint?.(pathname)));
  });
  app.onError((error, c) => {
    // Hono's middleware (bearerAuth) throws an HTTPException carrying our JSON error response.
    if (error instanceof HTTPException) return error.getResponse();
    if (!isHttpError(error)) console.error('[parley] internal error:', error);
    return errorReply(
      c.env,
      isHttpError(error) ? error : new HttpError('internal_error', 'An unexpected server failure'),
    );
  });
  // No async wrapper: it would add a promise and a turn to every request.
  return { fetch: (request, hooks = NO_HOOKS) => Promise.resolve(app.fetch(request, hooks)) };
}
