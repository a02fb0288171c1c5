import type { CassetteControl, RecordConfig, ReplayConfig } from './cassette/cassette-config.js';
import type { Cassette } from './cassette/cassette-format.js';
import type { AgentDefinition } from './conversation/agents.js';
import type { ExtensionHost } from './conversation/extension-host.js';
import type { ExtensionHostOptions, ParleyExtensionHost } from './extensions/create-extension-host.js';
import type { AllowedHosts } from './http/allowed-hosts.js';
import type { CorsOrigins } from './http/cors-policy.js';
import type { User } from './http/token-auth.js';
import type { Model } from './model/model.js';
import type { StreamPace } from './model/stream-pace.js';
import type { CheckingProxy } from './proxy/checking-proxy.js';
import { UPSTREAM_OPTION_KEYS, type UpstreamOptions } from './proxy/upstream-options.js';
import type { ChaosOptions } from './testing/chaos-options.js';
import type { ScopeControls } from './testing/scope-controls.js';
import type { Clock } from './time/clock.js';
import { checkOptions, type OptionKeys } from './utils/check-options.js';

/** Options of {@link createReferenceServer}. Every option has a default. */
export interface ReferenceServerOptions {
  /**
   * Users and their bearer tokens (RFC 6750 token characters: letters, digits and `-._~+/`, then
   * optional `=`). Default: one user `demo` with token `parley-demo-token`.
   */
  users?: readonly User[];
  /** Where time comes from. Default: the system clock; inject a `ManualClock` in tests. */
  clock?: Clock;
  /** The model answering every session. Default: the stand-in model. Not with {@link replay}. */
  model?: Model;
  /**
   * How fast the stand-in and scripted models stream, on the server's clock: `{ ttftMs,
   * wordsPerSecond, jitter, seed }` (docs/testing.md, "Streaming pace"). A session's pace
   * (`setPace(pace, { sessionId })`) and a scripted turn's `pace` win over it. Default: at once.
   */
  pace?: StreamPace;
  /**
   * Replays a cassette: its recorded assistant turns are the model's answers, while sessions, tool
   * calls, heartbeats, rewind, faults and the journal run as always. A file path (Node), a parsed
   * cassette, or either with options: `{ cassette, onMismatch, pace, match, recordMissing, expiresIn,
   * expiryStrategy }`. A model call that differs from the recording fails with `501 replay_mismatch`
   * (docs/testing.md, "Record and replay"). With `upstream`, the deployment answers what the cassette
   * lacks (`onMismatch: 'upstream'`, `recordMissing`) instead of taking every `/v1` request.
   */
  replay?: string | Cassette | ReplayConfig;
  /**
   * Records what passes through the checking proxy (`upstream`) as a cassette, written when the
   * server closes: a file path, or `{ file, redact }`. Needs `upstream`. `Authorization` and the
   * other headers are never written.
   */
  record?: string | RecordConfig;
  /** A PROCESSING tool call with no heartbeat for this long reads as PENDING. Default 15 000 ms. */
  heartbeatTimeoutMs?: number;
  /** A tool call is abandoned this long after its creation, heartbeats or not. Default 600 000 ms. */
  toolCallTimeoutMs?: number;
  /** Larger request bodies are `413 payload_too_large`. Default 1 MiB. */
  maxBodyBytes?: number;
  /**
   * Sessions kept at most, of all users and test scopes together: a create beyond is
   * `503 session_limit_reached` (a long-lived shared server's memory bound). Default: no limit.
   */
  maxSessions?: number;
  /**
   * Test scopes (`x-parley-test-id`, docs/testing.md "One server for many test runners"): how many
   * are held at most (`max`, default 1024: a new one beyond is `503 test_scope_limit_reached`; no
   * scope is removed for it) and after how long without a request, a running reply or an open
   * client tool call one is removed (`idleMs`, wall-clock time, not `clock`; default 10 minutes).
   * Removing a scope deletes its sessions; the test's next request is `410 test_scope_expired`.
   */
  testScopes?: { max?: number; idleMs?: number };
  /**
   * Replaces the agent catalogue (`customizations.agentId`). Default: the extension host's catalogue
   * (`default`, `assistant`, `weather`, `support`, `erp-assistant` and any from `extensions.agents`).
   */
  agents?: Readonly<Record<string, AgentDefinition>>;
  /** Replaces the foundation-model ids accepted by the Full variant. Default: the extension host's. */
  models?: readonly string[];
  /**
   * Accepted tool-provider names (`extensions.mcpProviders`). Default: the extension host's
   * registered providers (`['erp']`). Register real providers with `extensions.providers`; names
   * given here without a provider behind them only make sense with `extensions: false`.
   */
  providers?: readonly string[];
  /**
   * Extensions: agents and models catalogue, document retrieval, gateway tool providers (the
   * built-in `erp` MCP server) and per-product quotas. Default: the built-ins (`createExtensionHost`
   * with these options); `false` turns extensions off.
   */
  extensions?: ExtensionHostOptions | false;
  /** A custom extension host instead of the built-in one (wins over `extensions`). */
  extensionHost?: ExtensionHost;
  /**
   * Serve the test-only control and inspection routes under `/_parley/` (health, reset, journal,
   * faults, script, sessions, a web page). Each needs the control token in the
   * `x-parley-control-token` header. Default false: they are 404.
   */
  control?: boolean;
  /**
   * Serve the in-process MCP providers (the built-in `erp`) over MCP streamable HTTP at
   * `/mcp/<provider>`, for the official MCP client or MCP Inspector, with the users' bearer tokens.
   * Default: the `control` setting. Needs the built-in extension host (not with `extensions: false`).
   */
  mcpOverHttp?: boolean;
  /**
   * The control token of the `/_parley/` routes (visible ASCII, no spaces). Default: a random one
   * made at creation (`pct_` and 32 hex digits), read it from `server.controlToken`.
   */
  controlToken?: string;
  /**
   * `false` ignores the `x-parley-fault` header entirely; queued one-shot faults still apply.
   * Default true. Either way a fault applies only to a request with a user's bearer token or the
   * control token: a stranger cannot slow or cut the server.
   */
  faults?: boolean;
  /**
   * Seeded chaos from the start: a share of the matching requests get a fault of the given kinds,
   * the same ones for the same requests and seed, counted per session (docs/testing.md, "Seeded
   * chaos"). `reset()` puts it back with fresh counts; `faults.chaos(...)` changes it until then.
   */
  chaos?: ChaosOptions;
  /**
   * Host names the server answers to (against DNS rebinding): `true` for any, or names on top of
   * `localhost`, `*.localhost` and IP addresses, which are always allowed (`.example.com` allows
   * the domain and its subdomains, `*` any). Any other `Host` is `403 host_not_allowed`. Default
   * `true`: in process (fetch injection, msw) there is no network to rebind; `startServer` and the
   * CLI default to `[]`.
   */
  allowedHosts?: AllowedHosts;
  /** Journal entries kept (the oldest go first); `0` records nothing. Default 1000. */
  journalLimit?: number;
  /**
   * Characters of request and response bodies (and streamed replies' text) the journal keeps in
   * all its entries together; the oldest entries go first to stay under it. Default 4 MiB.
   */
  journalMaxBytes?: number;
  /** Characters of one body the journal keeps; longer bodies are kept truncated. Default 64 KiB. */
  journalMaxBodyBytes?: number;
  /**
   * CORS for browser apps on another origin (a dev server on another port): `true` allows every
   * origin, a string or list allows those, `false` sends no CORS headers. Default `true`: a local
   * emulator should not need a proxy. Every response carries the CORS headers (faults, errors,
   * control routes, 404s); a preflight is answered without authentication on any path and allows
   * every request header it asks for.
   */
  cors?: CorsOrigins;
  /**
   * Run as a checking proxy in front of a real deployment: every `/v1` request is forwarded to
   * `upstream.url` and its answer comes back as it was sent, checked against the protocol on the way
   * (violations go to the journal, one warning line each, and `GET /_parley/proxy/report`). Faults
   * and the journal work as for the server's own replies; `/healthz` and the control routes stay local.
   */
  upstream?: UpstreamOptions;
}

export type { RecordConfig, ReplayConfig } from './cassette/cassette-config.js';

/** A running reference server: a web-standard fetch handler plus inspection and control. */
export interface ReferenceServer extends ScopeControls {
  /** Handles one request. An arrow property: pass it around freely. */
  readonly fetch: (request: Request) => Promise<Response>;
  readonly clock: Clock;
  readonly users: readonly User[];
  readonly heartbeatTimeoutMs: number;
  readonly toolCallTimeoutMs: number;
  /** Number of sessions of all users. */
  readonly sessionCount: number;
  /** The model answering requests without a test id now (see `setModel`). */
  readonly model: Model;
  /** The server's pace now (the `pace` option, or {@link setPace}'s); undefined: at once. */
  readonly pace: StreamPace | undefined;
  /** Whether the `/_parley/` control routes are served. */
  readonly control: boolean;
  /** Whether the in-process MCP providers are served at `/mcp/<provider>`. */
  readonly mcpOverHttp: boolean;
  /** The token the control routes need in `x-parley-control-token`; undefined without control. */
  readonly controlToken: string | undefined;
  /**
   * Sets the pace of the replies from now on: the server's, or with `{ sessionId }` one session's
   * (which wins over the server's). `undefined` removes it. `reset()` puts back the `pace` option.
   * A negative or non-numeric figure is a `TypeError` naming it.
   */
  setPace(pace: StreamPace | undefined, scope?: { sessionId?: string }): void;
  /** Aborts every running reply, e.g. before shutting down. */
  abortReplies(reason?: unknown): void;
  /** The built-in extension host (catalogue, retriever, gateway), unless a custom one was given. */
  readonly extensions: ParleyExtensionHost | undefined;
  /** The checking proxy when the server runs with `upstream`: its upstream and its report. */
  readonly proxy: CheckingProxy | undefined;
  /** With `replay` or `record`: the cassette's test scope and what of it was not replayed. */
  readonly cassette: CassetteControl | undefined;
  /**
   * Aborts running replies and closes provider connections (as a proxy: prints the report's summary
   * and closes the observers, which writes the cassette of `record`). `startServer`'s `close()` calls it.
   */
  close(): Promise<void>;
}

/**
 * Every option of {@link ReferenceServerOptions}, with its type, checked by `createReferenceServer`
 * (and, with their own, by `startServer` and `useReferenceServer`): an unknown key or a value of
 * another type is a `TypeError` naming it. A new server option is one more line here (TypeScript
 * fails until it is).
 */
export const SERVER_OPTION_KEYS = {
  users: 'array',
  clock: 'object',
  model: 'function',
  replay: true,
  record: true,
  heartbeatTimeoutMs: 'number',
  toolCallTimeoutMs: 'number',
  maxBodyBytes: 'number',
  maxSessions: 'number',
  testScopes: 'object',
  agents: 'object',
  models: 'array',
  providers: 'array',
  extensions: true,
  extensionHost: 'object',
  control: 'boolean',
  mcpOverHttp: 'boolean',
  controlToken: 'string',
  faults: 'boolean',
  chaos: 'object',
  allowedHosts: true,
  journalLimit: 'number',
  journalMaxBytes: 'number',
  journalMaxBodyBytes: 'number',
  cors: true,
  upstream: 'object',
  pace: 'object',
} as const satisfies OptionKeys<ReferenceServerOptions>;

/** Checks `createReferenceServer`'s options and those of its objects: an unknown key or a wrong type throws. */
export function checkServerOptions(options: ReferenceServerOptions): void {
  checkOptions(options, SERVER_OPTION_KEYS, 'createReferenceServer()');
  if (options.upstream !== undefined) {
    checkOptions(options.upstream, UPSTREAM_OPTION_KEYS, 'createReferenceServer({ upstream })');
  }
  checkOptions(
    options.testScopes,
    { max: 'number', idleMs: 'number' },
    'createReferenceServer({ testScopes })',
  );
  // Nested options are checked alike: each user, each agent and its parameters.
  if (Array.isArray(options.users)) {
    options.users.forEach((user, index) => {
      checkOptions(user, { name: 'string', token: 'string' }, `createReferenceServer({ users[${index}] })`);
    });
  }
  for (const [id, agent] of Object.entries(options.agents ?? {})) {
    const where = `createReferenceServer({ agents.${id} })`;
    checkOptions(agent, { systemPrompt: 'string', tools: 'object', parameters: 'object' }, where);
    checkOptions(agent?.parameters, { maxTokens: 'number', temperature: 'number' }, `${where} parameters`);
  }
}
