import { REQUEST_ID_HEADER } from '@parley/protocol';
import { Hono } from 'hono';
import { type AgentDefinition, DEFAULT_AGENTS, DEFAULT_MODELS, DEFAULT_PROVIDERS } from './agents.js';
import type { Clock } from './clock.js';
import type { ExtensionHost } from './extension-host.js';
import { HttpError, isHttpError } from './http-error.js';
import { registerMessageRoutes } from './message-routes.js';
import type { Model } from './model/model.js';
import { standInModel } from './model/stand-in-model.js';
import { registerRewindRoute } from './rewind-route.js';
import type { AppEnv, ServerContext } from './server-context.js';
import { registerSessionRoutes } from './session-routes.js';
import { createSessionSetup } from './session-setup.js';
import { SessionStore } from './session-store.js';
import { systemClock } from './system-clock.js';
import { TokenAuth, type User } from './token-auth.js';
import { registerToolRoutes } from './tool-routes.js';

/** The demo user a server gets when no `users` are given. */
export const DEMO_USER: Readonly<User> = { name: 'demo', token: 'parley-demo-token' };

/** Options of {@link createReferenceServer}. Every option has a default. */
export interface ReferenceServerOptions {
  /** Users and their bearer tokens. Default: one user `demo` with token `parley-demo-token`. */
  users?: readonly User[];
  /** Where time comes from. Default: the system clock; inject a `ManualClock` in tests. */
  clock?: Clock;
  /** The model answering every session. Default: the stand-in model. */
  model?: Model;
  /** A PROCESSING tool call with no heartbeat for this long reads as PENDING. Default 15 000 ms. */
  heartbeatTimeoutMs?: number;
  /** A tool call is abandoned this long after its creation, heartbeats or not. Default 600 000 ms. */
  toolCallTimeoutMs?: number;
  /** Larger request bodies are `413 payload_too_large`. Default 1 MiB. */
  maxBodyBytes?: number;
  /** The agent catalogue (`customizations.agentId`). Default: `default`, `assistant`, `weather`. */
  agents?: Readonly<Record<string, AgentDefinition>>;
  /** Foundation-model ids accepted by the Full variant (`customizations.model`). */
  models?: readonly string[];
  /** Registered tool-provider names (`extensions.mcpProviders`). Default `['erp']`. */
  providers?: readonly string[];
  /** Extensions: retrieval, gateway tools, quotas. */
  extensionHost?: ExtensionHost;
}

/** A running reference server: a web-standard fetch handler plus inspection and control. */
export interface ReferenceServer {
  /** Handles one request. An arrow property: pass it around freely. */
  readonly fetch: (request: Request) => Promise<Response>;
  readonly clock: Clock;
  readonly users: readonly User[];
  readonly heartbeatTimeoutMs: number;
  readonly toolCallTimeoutMs: number;
  /** Number of sessions of all users. */
  readonly sessionCount: number;
  /** Deletes every session (aborting running replies). */
  reset(): void;
  /** Aborts every running reply, e.g. before shutting down. */
  abortReplies(reason?: unknown): void;
}

/** Creates the in-memory reference server: every endpoint of docs/protocol.md behind one `fetch`. */
export function createReferenceServer(options: ReferenceServerOptions = {}): ReferenceServer {
  const clock = options.clock ?? systemClock;
  const users = [...(options.users ?? [DEMO_USER])];
  const heartbeatTimeoutMs = options.heartbeatTimeoutMs ?? 15_000;
  const toolCallTimeoutMs = options.toolCallTimeoutMs ?? 600_000;
  const sessions = new SessionStore({ clock, heartbeatTimeoutMs, toolCallTimeoutMs });
  const ctx: ServerContext = {
    sessions,
    setup: createSessionSetup(
      options.agents ?? DEFAULT_AGENTS,
      options.models ?? DEFAULT_MODELS,
      options.providers ?? DEFAULT_PROVIDERS,
    ),
    clock,
    model: options.model ?? standInModel,
    host: options.extensionHost,
    heartbeatTimeoutMs,
    maxBodyBytes: options.maxBodyBytes ?? 1024 * 1024,
  };
  const auth = new TokenAuth(users);

  const app = new Hono<AppEnv>();
  app.use('/v1/*', async (c, next) => {
    c.set('user', await auth.authenticate(c.req.header('authorization') ?? null));
    await next();
  });
  registerSessionRoutes(app, ctx);
  registerRewindRoute(app, ctx);
  registerMessageRoutes(app, ctx);
  registerToolRoutes(app, ctx);
  app.notFound((c) => {
    return new HttpError(
      'route_not_found',
      `No endpoint at ${c.req.method} ${new URL(c.req.url).pathname}`,
    ).toResponse();
  });
  app.onError((error) => {
    if (!isHttpError(error)) console.error('[parley] internal error:', error);
    return (
      isHttpError(error) ? error : new HttpError('internal_error', 'An unexpected server failure')
    ).toResponse();
  });

  const fetch = async (request: Request): Promise<Response> => {
    const requestId = `req_${crypto.randomUUID().replaceAll('-', '')}`;
    let response: Response;
    try {
      response = await app.fetch(request);
    } catch (error) {
      response = (
        isHttpError(error) ? error : new HttpError('internal_error', 'An unexpected server failure')
      ).toResponse();
    }
    try {
      response.headers.set(REQUEST_ID_HEADER, requestId);
      return response;
    } catch {
      // Immutable headers: copy the response.
      const headers = new Headers(response.headers);
      headers.set(REQUEST_ID_HEADER, requestId);
      return new Response(response.body, {
        status: response.status,
        statusText: response.statusText,
        headers,
      });
    }
  };

  return {
    fetch,
    clock,
    users,
    heartbeatTimeoutMs,
    toolCallTimeoutMs,
    get sessionCount() {
      return sessions.size;
    },
    reset: () => sessions.clear(),
    abortReplies: (reason?: unknown) =>
      sessions.abortReplies(reason ?? new HttpError('internal_error', 'The server is shutting down')),
  };
}
