import type { User } from '../http/token-auth.js';
import type { Clock } from '../time/clock.js';
import type { OptionKeys } from '../utils/check-options.js';
import type { ProxyObserver } from './proxy-exchange.js';

/** Default of {@link UpstreamOptions.maxCheckedBodyBytes}: 8 MiB. */
export const DEFAULT_MAX_CHECKED_BODY_BYTES = 8 * 1024 * 1024;

/** Default of {@link UpstreamOptions.timeoutMs}: a real model's buffered reply can take a while. */
export const DEFAULT_UPSTREAM_TIMEOUT_MS = 120_000;

/**
 * The reference server as a checking proxy in front of a real deployment (`--upstream`): every
 * `/v1` request goes to `url` and its answer comes back as it was sent, checked against the protocol
 * on the way.
 */
export interface UpstreamOptions {
  /** The deployment's base URL, e.g. `https://parley.example.com` (a path prefix is kept). */
  url: string;
  /**
   * The bearer token sent upstream. With it, a request must carry a local user's token (the
   * server's `users`), which the proxy replaces by this one: the real token stays in the proxy, out
   * of test code and of the journal. Without it, the client's `Authorization` header passes through.
   */
  token?: string;
  /**
   * Milliseconds to wait for the upstream's answer: its status and headers, and a buffered reply's
   * whole body (a streamed reply's first bytes); past it the client gets `504 upstream_timeout`. A streamed reply may go this long
   * without a byte; past it the proxy cuts the client's body (it fails) and ends the upstream
   * request. Timed on the server's clock. Default 120 000.
   */
  timeoutMs?: number;
  /**
   * The longest buffered answer (not a streamed reply) the proxy holds to check: a longer one is
   * passed on as it comes, unchecked (one warning line, counted as `unchecked` in the report; the
   * journal keeps its first part, observers get no body). Bounds the proxy's memory per request.
   * Default 8 MiB.
   */
  maxCheckedBodyBytes?: number;
  /** Told every exchange once its response body ended (the cassette recorder is one). */
  observers?: readonly ProxyObserver[];
  /**
   * The fetch the proxy calls the upstream with. Default: on Node, a node:http(s) client with a
   * keep-alive agent (cheaper per request than the global `fetch`); elsewhere the global `fetch`.
   */
  fetch?: (input: string, init: RequestInit) => Promise<Response>;
  /**
   * Where the proxy writes one warning line per protocol violation and a summary when the server
   * stops. Default `console.warn`.
   */
  log?: (line: string) => void;
}

/**
 * Every key of {@link UpstreamOptions}, with its type, checked with the server's options: a new
 * proxy option is one more line here (TypeScript fails until it is).
 */
export const UPSTREAM_OPTION_KEYS = {
  url: 'string',
  token: 'string',
  timeoutMs: 'number',
  maxCheckedBodyBytes: 'number',
  observers: 'array',
  fetch: 'function',
  log: 'function',
} as const satisfies OptionKeys<UpstreamOptions>;

/** What the proxy needs of the server it runs in. */
export interface CheckingProxyDeps {
  upstream: UpstreamOptions;
  clock: Clock;
  /** The server's users: with an upstream token, a request must carry one of their tokens. */
  users: readonly User[];
  /** Larger request bodies are `413 payload_too_large`, as the server answers them. */
  maxBodyBytes: number;
}
