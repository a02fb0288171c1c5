import { checkOptions } from '@parley/protocol/option-check';
import { getPath } from 'hono/utils/url';
import { setUpCassette } from './cassette/cassette-setup.js';
import { DEFAULT_AGENTS, DEFAULT_MODELS, DEFAULT_PROVIDERS } from './conversation/agents.js';
import type { ExtensionHost } from './conversation/extension-host.js';
import { createSessionSetup } from './conversation/session-setup.js';
import { SessionStore } from './conversation/session-store.js';
import { createExtensionHost, type ParleyExtensionHost } from './extensions/create-extension-host.js';
import { MCP_HTTP_PREFIX, mcpHttpEndpoint } from './extensions/mcp/mcp-http-endpoint.js';
import { createProtocolApp } from './http/app.js';
import { HEALTH_PATH } from './http/routes/health-route.js';
import type { ServerContext } from './http/server-context.js';
import { bearerMatcher, type User } from './http/token-auth.js';
import { withEdgePolicy } from './http/with-edge-policy.js';
import { HttpError } from './http-error.js';
import type { Model } from './model/model.js';
import { loadScript } from './model/script-file.js';
import { type Script, scriptedModel } from './model/scripted-model.js';
import { standInModel } from './model/stand-in-model.js';
import { createCheckingProxy } from './proxy/checking-proxy.js';
import { UPSTREAM_OPTION_KEYS } from './proxy/upstream-options.js';
import { controlTokenMatcher, generateControlToken } from './testing/control-access.js';
import { controlOffHint, createControlRoutes, isControlPath } from './testing/control-routes.js';
import { ControlTokenGuard } from './testing/control-token-guard.js';
import { FaultQueue } from './testing/fault-queue.js';
import {
  DEFAULT_JOURNAL_LIMIT,
  DEFAULT_JOURNAL_MAX_BODY_BYTES,
  DEFAULT_JOURNAL_MAX_BYTES,
  Journal,
} from './testing/journal.js';
import { withToolkit } from './testing/with-toolkit.js';
import { systemClock } from './time/system-clock.js';

/** The demo user a server gets when no `users` are given. */
export const DEMO_USER: Readonly<User> = { name: 'demo', token: 'parley-demo-token' };

import {
  type ReferenceServer,
  type ReferenceServerOptions,
  SERVER_OPTION_KEYS,
} from './reference-server-options.js';

export type { ReferenceServer, ReferenceServerOptions } from './reference-server-options.js';

/** Creates the in-memory reference server: every endpoint of docs/protocol.md behind one `fetch`. */
export function createReferenceServer(options: ReferenceServerOptions = {}): ReferenceServer {
  checkOptions(options, SERVER_OPTION_KEYS, 'createReferenceServer()');
  if (options.upstream !== undefined) {
    checkOptions(options.upstream, UPSTREAM_OPTION_KEYS, 'createReferenceServer({ upstream })');
  }
  const clock = options.clock ?? systemClock;
  const heartbeatTimeoutMs = options.heartbeatTimeoutMs ?? 15_000;
  const toolCallTimeoutMs = options.toolCallTimeoutMs ?? 600_000;
  const sessions = new SessionStore({ clock, heartbeatTimeoutMs, toolCallTimeoutMs });
  if (options.replay !== undefined && options.model !== undefined) {
    throw new Error('createReferenceServer: pass either `model` or `replay` (the cassette is the model)');
  }
  const users = [...(options.users ?? [DEMO_USER])];
  let proxy: ReturnType<typeof createCheckingProxy> | undefined;
  // Replay or record: checked here, so a bad option or file fails the creation.
  const cassette = setUpCassette(options, {
    clock,
    sessionOrder: (id) => sessions.seqOf(id),
    sessionsCreated: () => sessions.created,
    upstreamFetch: (request) => (proxy as NonNullable<typeof proxy>).fetch(request, {}),
    token: users[0]?.token ?? DEMO_USER.token,
    warn: (line) => (options.upstream?.log ?? console.warn)(line),
    // Not the proxy's log (its violations): what a recording wrote is for whoever runs it.
    log: (line) => console.log(line),
  });
  const initialModel = cassette.model ?? options.model ?? standInModel;
  const recorder = cassette.recorder;
  const journal = new Journal({
    entries: options.journalLimit ?? DEFAULT_JOURNAL_LIMIT,
    maxBytes: options.journalMaxBytes ?? DEFAULT_JOURNAL_MAX_BYTES,
    maxBodyBytes: options.journalMaxBodyBytes ?? DEFAULT_JOURNAL_MAX_BODY_BYTES,
  });
  const faults = new FaultQueue();
  // Chaos options are checked here: a bad one fails at creation, not at the first request.
  if (options.chaos !== undefined) faults.chaos(options.chaos);
  const extensions =
    options.extensionHost === undefined && options.extensions !== false
      ? createExtensionHost({ clock, ...options.extensions })
      : undefined;
  // A host made with createExtensionHost brings its catalogue and providers, built-in or given.
  const parleyHost = extensions ?? asParleyHost(options.extensionHost);
  const catalogue = parleyHost?.catalogue;
  const ctx: ServerContext = {
    sessions,
    setup: createSessionSetup(
      options.agents ?? catalogue?.agents ?? DEFAULT_AGENTS,
      options.models ?? (catalogue ? Object.keys(catalogue.models) : DEFAULT_MODELS),
      options.providers ?? parleyHost?.gateway.names ?? DEFAULT_PROVIDERS,
      catalogue?.defaultAgentId || undefined,
    ),
    clock,
    model: initialModel,
    host: options.extensionHost ?? extensions,
    heartbeatTimeoutMs,
    maxBodyBytes: options.maxBodyBytes ?? 1024 * 1024,
  };
  const mcpOverHttp = (options.mcpOverHttp ?? options.control === true) && parleyHost !== undefined;
  const core = createProtocolApp(ctx, {
    users,
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
  const control = options.control === true;
  const controlToken = control ? (options.controlToken ?? generateControlToken()) : undefined;
  const controlTokenGuard =
    controlToken === undefined ? undefined : new ControlTokenGuard(controlTokenMatcher(controlToken), clock);
  // A fault with a wrong control token is ignored, and counts as a guess like any other (answered as slowly).
  const hasControlToken = async (request: Request) =>
    (await controlTokenGuard?.verify(request))?.kind === 'valid';
  const isUser = bearerMatcher(users);
  // As a checking proxy, /v1 goes upstream; the toolkit wraps the proxy as it wraps the core. A
  // replay asks it only for what the cassette lacks.
  proxy =
    options.upstream === undefined
      ? undefined
      : createCheckingProxy({
          upstream:
            recorder === undefined
              ? options.upstream
              : { ...options.upstream, observers: [...(options.upstream.observers ?? []), recorder] },
          clock,
          users,
          maxBodyBytes: ctx.maxBodyBytes,
        });
  const forwarding = cassette.replaysWithUpstream ? undefined : proxy;
  const inner: typeof core.fetch =
    forwarding === undefined
      ? core.fetch
      : (request, hooks = {}) =>
          isProtocolPath(getPath(request)) ? forwarding.fetch(request, hooks) : core.fetch(request, hooks);
  // Passing the client's token through, the proxy cannot tell a user's token: any bearer token may ask for a fault.
  const passThrough = forwarding !== undefined && options.upstream?.token === undefined;
  // The testing toolkit wraps the core: journal and faults around it, stream faults as its pacer.
  const protocolFetch = withToolkit(inner, {
    clock,
    journal,
    faults,
    faultHeader: options.faults !== false,
    mayFault: (request) => {
      const authorization = request.headers.get('authorization');
      return isUser(authorization) || (passThrough && authorization !== null) || hasControlToken(request);
    },
  });

  const reset = (resetOptions: { user?: string } = {}) => {
    checkOptions(resetOptions, { user: 'string' }, 'server.reset()');
    if (resetOptions.user !== undefined) {
      for (const session of sessions.list(resetOptions.user)) sessions.delete(session);
      journal.clear({ user: resetOptions.user });
      return;
    }
    sessions.clear();
    journal.clear();
    faults.clear();
    faults.chaos(options.chaos ?? false);
    controlTokenGuard?.clear();
    ctx.model = initialModel;
    ctx.host?.reset?.();
  };
  const controlRoutes = control
    ? createControlRoutes({
        clock,
        users,
        sessions,
        journal,
        faults,
        reset,
        loadScript: (json) => {
          const script = loadScript(json);
          ctx.model = scriptedModel(script);
          return Array.isArray(script) ? { turns: script.length } : { rules: script.rules.length };
        },
        restoreModel: () => {
          ctx.model = initialModel;
        },
        checkControlToken: async (request) =>
          controlTokenGuard === undefined
            ? { kind: 'invalid', delayMs: 0 }
            : controlTokenGuard.verify(request),
        ...(proxy === undefined ? {} : { proxyReport: () => proxy.report() }),
      })
    : undefined;

  const abortReplies = (reason?: unknown) =>
    sessions.abortReplies(reason ?? new HttpError('internal_error', 'The server is shutting down'));

  // The edge policy (host check, CORS, nosniff) stands in front of every route.
  const fetch = withEdgePolicy(
    async (request) => {
      // Hono's own path reading (no URL parse per request), so this dispatch and the routers agree.
      const pathname = getPath(request);
      if (controlRoutes !== undefined && isControlPath(pathname)) return controlRoutes(request);
      // Readiness checks go straight to the core: no journal entry, no fault (a queued one stays).
      if (pathname === HEALTH_PATH) return core.fetch(request);
      return protocolFetch(request);
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
      return ctx.model;
    },
    control,
    mcpOverHttp,
    controlToken,
    journal,
    faults,
    reset,
    setModel: (model: Model) => {
      ctx.model = model;
    },
    script: (script: Script) => {
      ctx.model = scriptedModel(script);
    },
    abortReplies,
    extensions,
    proxy,
    cassette: cassette.control,
    close: async () => {
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

/** `/v1` and below: what a checking proxy forwards. */
function isProtocolPath(pathname: string): boolean {
  return pathname === '/v1' || pathname.startsWith('/v1/');
}

function asParleyHost(host: ExtensionHost | undefined): ParleyExtensionHost | undefined {
  return host !== undefined && 'catalogue' in host && 'gateway' in host
    ? (host as ParleyExtensionHost)
    : undefined;
}
