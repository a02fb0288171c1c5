import { getPath } from 'hono/utils/url';
import { setUpCassette } from './cassette/cassette-setup.js';
import { DEFAULT_AGENTS, DEFAULT_MODELS, DEFAULT_PROVIDERS } from './conversation/agents.js';
import type { ExtensionHost } from './conversation/extension-host.js';
import { createSessionSetup } from './conversation/session-setup.js';
import { SessionStore } from './conversation/session-store.js';
import { createExtensionHost, type ParleyExtensionHost } from './extensions/create-extension-host.js';
import { MCP_HTTP_PREFIX, mcpHttpEndpoint } from './extensions/mcp/mcp-http-endpoint.js';
import { createProtocolApp } from './http/app.js';
import { isProbePath } from './http/routes/health-route.js';
import type { ServerContext } from './http/server-context.js';
import type { User } from './http/token-auth.js';
import { withEdgePolicy } from './http/with-edge-policy.js';
import { HttpError } from './http-error.js';
import { ServerPaces } from './model/server-paces.js';
import { standInModel } from './model/stand-in-model.js';
import { type CheckingProxy, createCheckingProxy } from './proxy/checking-proxy.js';
import type { ProxyObserver } from './proxy/proxy-exchange.js';
import type { UpstreamOptions } from './proxy/upstream-options.js';
import { controlTokenMatcher, generateControlToken } from './testing/control-access.js';
import { controlOffHint } from './testing/control-prefix.js';
import type { ControlTarget } from './testing/control-routes.js';
import { ControlTokenGuard } from './testing/control-token-guard.js';
import { faultPermission, userRequestMatcher } from './testing/fault-permission.js';
import {
  DEFAULT_JOURNAL_LIMIT,
  DEFAULT_JOURNAL_MAX_BODY_BYTES,
  DEFAULT_JOURNAL_MAX_BYTES,
  type JournalLimits,
} from './testing/journal.js';
import type { Scope } from './testing/scope.js';
import { scopeControls } from './testing/scope-controls.js';
import { ScopeRegistry } from './testing/scope-registry.js';
import { withScopes } from './testing/with-scopes.js';
import { type CoreFetch, withToolkit } from './testing/with-toolkit.js';
import { systemClock } from './time/system-clock.js';

/** The demo user a server gets when no `users` are given. */
export const DEMO_USER: Readonly<User> = { name: 'demo', token: 'parley-demo-token' };

import {
  checkServerOptions,
  type ReferenceServer,
  type ReferenceServerOptions,
} from './reference-server-options.js';

export type { ReferenceServer, ReferenceServerOptions } from './reference-server-options.js';

/** Creates the in-memory reference server: every endpoint of docs/protocol.md behind one `fetch`. */
export function createReferenceServer(options: ReferenceServerOptions = {}): ReferenceServer {
  checkServerOptions(options);
  const clock = options.clock ?? systemClock;
  const heartbeatTimeoutMs = options.heartbeatTimeoutMs ?? 15_000;
  const toolCallTimeoutMs = options.toolCallTimeoutMs ?? 600_000;
  const sessions = new SessionStore({
    clock,
    heartbeatTimeoutMs,
    toolCallTimeoutMs,
    maxSessions: options.maxSessions,
  });
  if (options.replay !== undefined && options.model !== undefined) {
    throw new Error('createReferenceServer: pass either `model` or `replay` (the cassette is the model)');
  }
  const users = [...(options.users ?? [DEMO_USER])];
  let proxy: CheckingProxy | undefined;
  // Replay or record: checked here, so a bad option or file fails the creation.
  const cassette = setUpCassette(options, {
    clock,
    sessionOf: (id) => sessions.get(id),
    sessionsCreated: () => sessions.created,
    upstreamFetch: (request) => (proxy as CheckingProxy).fetch(request, {}),
    token: users[0]?.token ?? DEMO_USER.token,
    warn: (line) => (options.upstream?.log ?? console.warn)(line),
    // Not the proxy's log (its violations): what a recording wrote is for whoever runs it.
    log: (line) => console.log(line),
  });
  const extensions =
    options.extensionHost === undefined && options.extensions !== false
      ? createExtensionHost({ clock, ...options.extensions })
      : undefined;
  // A host made with createExtensionHost brings its catalogue and providers, built-in or given.
  const parleyHost = extensions ?? asParleyHost(options.extensionHost);
  const paces = new ServerPaces(options.pace);
  const host = options.extensionHost ?? extensions;
  const controlToken =
    options.control === true ? (options.controlToken ?? generateControlToken()) : undefined;
  const controlTokenGuard =
    controlToken === undefined ? undefined : new ControlTokenGuard(controlTokenMatcher(controlToken), clock);
  // Every scope (the default one, one per test id) starts from the server's own model, chaos and
  // journal limits; the chaos option is checked here, by the default scope.
  const scopes = new ScopeRegistry({
    // Idleness is wall-clock time: a test moving the server's clock must not lose its own scope.
    idleClock: systemClock,
    sessions,
    template: {
      model: cassette.model ?? options.model ?? standInModel,
      chaos: options.chaos,
      journal: journalLimitsOf(options),
    },
    ...options.testScopes,
    onFullReset: () => {
      controlTokenGuard?.clear();
      paces.reset();
      host?.reset?.();
    },
  });
  const ctx: ServerContext = {
    sessions,
    setup: sessionSetupOf(options, parleyHost),
    clock,
    scope: scopes.default,
    host,
    heartbeatTimeoutMs,
    maxBodyBytes: options.maxBodyBytes ?? 1024 * 1024,
    pace: (sessionId) => paces.of(sessionId),
  };
  const mcpOverHttp = (options.mcpOverHttp ?? options.control === true) && parleyHost !== undefined;
  const core = createProtocolApp(ctx, {
    users,
    ready: async () => (await cassette.ready()) ?? (await proxy?.ready()),
    ...(options.control === true ? {} : { routeHint: controlOffHint }),
    // The providers of extensions/ by URL: the core authenticates, the endpoint speaks MCP.
    mounts: mcpOverHttp
      ? [
          {
            prefix: MCP_HTTP_PREFIX,
            fetch: mcpHttpEndpoint(parleyHost.gateway, { maxBodyBytes: ctx.maxBodyBytes }),
          },
        ]
      : [],
  });
  // As a checking proxy, /v1 goes upstream; the toolkit wraps the proxy as it wraps the core. A
  // replay asks it only for what the cassette lacks.
  proxy =
    options.upstream === undefined
      ? undefined
      : createCheckingProxy({
          upstream: withObserver(options.upstream, cassette.recorder),
          clock,
          users,
          maxBodyBytes: ctx.maxBodyBytes,
        });
  const forwarding = cassette.replaysWithUpstream ? undefined : proxy;
  const inner: CoreFetch =
    forwarding === undefined
      ? core.fetch
      : (request, hooks) =>
          isProtocolPath(getPath(request)) ? forwarding.fetch(request, hooks) : core.fetch(request, hooks);
  // Passing the client's token through, the proxy cannot tell a user's token: any bearer token counts.
  const isUserRequest = userRequestMatcher(
    users,
    forwarding !== undefined && options.upstream?.token === undefined,
  );
  // Aborted by close(): ends the waits of injected latency, which no reply's abort reaches.
  const closing = new AbortController();
  const scoped = withScopes(scopes, {
    isUserRequest,
    // The testing toolkit wraps the core: journal and faults around it, stream faults as its pacer.
    protocol: withToolkit(inner, {
      clock,
      closed: closing.signal,
      faultHeader: options.faults !== false,
      mayFault: faultPermission(isUserRequest, (request) => controlTokenGuard?.verify(request)),
    }),
    control:
      controlTokenGuard &&
      controlRoutesOnFirstUse({
        clock,
        users,
        sessions,
        scopes,
        checkControlToken: (request) => controlTokenGuard.verify(request),
        ...(proxy === undefined ? {} : { proxyReport: () => proxy.report() }),
        ...(cassette.control === undefined ? {} : { testStatus: cassette.control.testStatus }),
      }),
  });
  const abortReplies = (reason?: unknown) =>
    sessions.abortReplies(reason ?? new HttpError('internal_error', 'The server is shutting down'));

  // The edge policy (host check, CORS, nosniff) stands in front of every route.
  const fetch = withEdgePolicy(
    async (request) => {
      // Hono's own path reading (no URL parse per request), so this dispatch and the routers agree.
      const pathname = getPath(request);
      // Readiness checks go straight to the core: no scope, no journal entry, no fault (a queued one stays).
      return isProbePath(pathname) ? core.fetch(request) : scoped(request, pathname);
    },
    { cors: options.cors ?? true, allowedHosts: options.allowedHosts ?? true },
  );

  return {
    fetch,
    clock,
    users,
    heartbeatTimeoutMs,
    toolCallTimeoutMs,
    get sessionCount() {
      return sessions.size;
    },
    get model() {
      return scopes.default.model;
    },
    get pace() {
      return paces.server;
    },
    control: controlToken !== undefined,
    mcpOverHttp,
    controlToken,
    ...scopeControls(scopes),
    setPace: (pace, scope) => paces.set(pace, scope),
    abortReplies,
    extensions,
    proxy,
    cassette: cassette.control,
    close: async () => {
      closing.abort();
      abortReplies();
      controlTokenGuard?.close();
      await extensions?.close();
      // The proxy closes its observers: the recorder writes the cassette then.
      await proxy?.close();
      // Record-missing writes what it added.
      await cassette.close();
    },
  };
}

/**
 * The control routes, made with the first control request: a server (a page) that gets none does not
 * load them.
 */
function controlRoutesOnFirstUse(
  target: ControlTarget,
): (request: Request, scope: Scope) => Promise<Response> {
  let routes: Promise<(request: Request, scope: Scope) => Promise<Response>> | undefined;
  return async (request, scope) => {
    routes ??= import('./testing/control-routes.js').then(({ createControlRoutes }) =>
      createControlRoutes(target),
    );
    return (await routes)(request, scope);
  };
}

/** `/v1` and below: what a checking proxy forwards. */
function isProtocolPath(pathname: string): boolean {
  return pathname === '/v1' || pathname.startsWith('/v1/');
}

function asParleyHost(host: ExtensionHost | undefined): ParleyExtensionHost | undefined {
  return host !== undefined && 'catalogue' in host && 'gateway' in host
    ? (host as ParleyExtensionHost)
    : undefined;
}

/** The catalogue sessions resolve against: the options', else the extension host's, else the built-ins. */
function sessionSetupOf(options: ReferenceServerOptions, host: ParleyExtensionHost | undefined) {
  const catalogue = host?.catalogue;
  return createSessionSetup(
    options.agents ?? catalogue?.agents ?? DEFAULT_AGENTS,
    options.models ?? (catalogue ? Object.keys(catalogue.models) : DEFAULT_MODELS),
    options.providers ?? host?.gateway.names ?? DEFAULT_PROVIDERS,
    catalogue?.defaultAgentId || undefined,
  );
}

/** Each scope's journal limits. */
function journalLimitsOf(options: ReferenceServerOptions): JournalLimits {
  return {
    entries: options.journalLimit ?? DEFAULT_JOURNAL_LIMIT,
    maxBytes: options.journalMaxBytes ?? DEFAULT_JOURNAL_MAX_BYTES,
    maxBodyBytes: options.journalMaxBodyBytes ?? DEFAULT_JOURNAL_MAX_BODY_BYTES,
  };
}

/** The upstream options with the cassette's recorder among their observers. */
function withObserver(upstream: UpstreamOptions, recorder: ProxyObserver | undefined): UpstreamOptions {
  return recorder === undefined
    ? upstream
    : { ...upstream, observers: [...(upstream.observers ?? []), recorder] };
}
