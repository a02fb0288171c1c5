import type { OptionKeys } from '@parley/protocol/option-check';
import type { ReferenceServerOptions } from '../create-reference-server.js';
import { SERVER_OPTION_KEYS } from '../reference-server-options.js';
import type { CassetteUse } from './vitest-cassette.js';

/** What a client factory gets: where the server is and whose token to send. */
export interface ClientInit {
  /** `http://127.0.0.1:PORT` over HTTP, the msw base URL (default `http://parley.test`) in msw mode. */
  baseUrl: string;
  /** The bearer token of the first user (the demo user's by default). */
  token: string;
}

/** Options of {@link useReferenceServer}: every server option plus how to run it. */
export interface UseReferenceServerOptions<Client = never> extends ReferenceServerOptions {
  /**
   * `'http'` (default): a real socket on a free port (`startServer`), reachable from any client,
   * also another process. `'msw'`: no socket; msw answers `fetch` calls to `baseUrl` in-process
   * (msw is an optional peer dependency: install it for this mode).
   */
  mode?: 'http' | 'msw';
  /** msw mode: the base URL the handlers answer under. Default `http://parley.test`. */
  baseUrl?: string;
  /** HTTP mode: interface to bind. Default `127.0.0.1`. */
  host?: string;
  /** Reset all state (sessions, journal, faults, model) after each test. Default true. */
  resetAfterEach?: boolean;
  /**
   * Builds the client `handle.client` returns, once per file. Pass your SDK's constructor, e.g.
   * `(init) => new Parley(init)`; the reference server does not depend on the SDK itself.
   */
  createClient?: (init: ClientInit) => Client;
  /** Control routes under `/_parley/` (journal, reset, faults, ...). Default true here. */
  control?: boolean;
  /**
   * Record and replay: a cassette file, or the file with its mode and settings. A path alone is
   * `'auto'`: recorded through `upstream` when it does not exist; replayed when it does, and with
   * `upstream` what it lacks is recorded too (`'record-missing'`).
   */
  cassette?: string | URL | CassetteUse;
  /**
   * After the file's tests, recordings of the cassette never replayed (of the tests that ran) and
   * faults queued but never taken fail the file, listed. `true` lets them pass. Default false.
   */
  allowUnused?: boolean;
  /**
   * As a checking proxy (`upstream`, or a cassette being recorded): after the file's tests, fail it
   * with a `ProxyViolationsError` listing each kind of protocol violation the deployment sent (and
   * the request id of the last one), even when every test passed. Default true; `false` leaves
   * them to `server.proxy.report()` and the journal.
   */
  failOnViolation?: boolean;
}

/**
 * Every key of {@link UseReferenceServerOptions}: the server's and the helper's own, each with its
 * type. A new option of the helper is one more line here (TypeScript fails until it is).
 */
export const USE_OPTION_KEYS = {
  ...SERVER_OPTION_KEYS,
  mode: 'string',
  baseUrl: 'string',
  host: 'string',
  resetAfterEach: 'boolean',
  createClient: 'function',
  control: 'boolean',
  cassette: true,
  allowUnused: 'boolean',
  failOnViolation: 'boolean',
} as const satisfies OptionKeys<UseReferenceServerOptions<unknown>>;
