import { DEMO_USER } from '../create-reference-server.js';
import { checkOptions } from '../utils/check-options.js';
import {
  assertOwnRunnerOptions,
  type ClientInit,
  type Runner,
  USE_OPTION_KEYS,
  type UseReferenceServerOptions,
} from './runner-options.js';
import type { SharedServerOptions } from './shared-server.js';
import { sharedServerOf } from './shared-server-option.js';
import { type CassettePlan, cassettePlan } from './vitest-cassette.js';

/** A runner helper's options, checked, with their defaults: what the harness runs on. */
export interface HarnessOptions<Client> {
  /** Names the helper in errors. */
  caller: string;
  /** The shared server asked for (`serverUrl`, `mode: 'shared'`), or undefined for one of its own. */
  shared: SharedServerOptions | undefined;
  /** The server of its own: its options, with the cassette's. A shared server records per test. */
  plan: CassettePlan;
  /** How a server of its own is reached. */
  own: { mode: 'http' | 'msw' | 'shared'; baseUrl: string; host: string | undefined; control: boolean };
  /** The bearer token of the handle's client. */
  token: string;
  resetAfterEach: boolean;
  createClient: ((init: ClientInit) => Client) | undefined;
  allowUnused: boolean;
  failOnViolation: boolean;
}

/**
 * Checks a helper's options when the helper is called: a bad cassette setting, a shared server
 * without its URL, or an option of another runner's helper fails at once.
 */
export function harnessOptions<Client>(
  runner: Runner,
  options: UseReferenceServerOptions<Client>,
  env: Readonly<Record<string, string | undefined>>,
): HarnessOptions<Client> {
  const caller = runner === 'playwright' ? '@parley/reference-server/playwright' : 'useReferenceServer';
  assertOwnRunnerOptions(runner, options);
  checkOptions(options, USE_OPTION_KEYS, `${caller}()`);
  const {
    mode = 'http',
    baseUrl = 'http://parley.test',
    host,
    resetAfterEach = true,
    createClient,
    control = true,
    cassette,
    allowUnused = false,
    failOnViolation = true,
    serverUrl: _serverUrl,
    ...serverOptions
  } = options;
  const shared = sharedServerOf(caller, options, env);
  const plan =
    shared === undefined
      ? cassettePlan(serverOptions, cassette, env, runner)
      : { serverOptions, cassetteMode: undefined, per: 'test' as const };
  const token = shared?.token ?? (plan.serverOptions.users?.[0] ?? DEMO_USER).token;
  return {
    caller,
    shared,
    plan,
    own: { mode, baseUrl, host, control },
    token,
    resetAfterEach,
    createClient,
    allowUnused,
    failOnViolation,
  };
}
