import {
  createReferenceServer,
  ManualClock,
  type ReferenceServer,
  startServer,
} from '@parley/reference-server';
import { createHandlers } from '@parley/reference-server/msw';
import { type FetchLike, Parley, type ParleyOptions } from '@parley/sdk';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll } from 'vitest';
import { contractModel } from './contract-model.js';
import { OpenApiCheck } from './openapi-check.js';

/**
 * Where the contract suite runs:
 * - `http`: a reference server on a real port (`startServer({ port: 0 })`), the SDK over real HTTP;
 * - `msw`: a reference server behind msw's `setupServer`, intercepting the SDK's global `fetch`;
 * - `external`: any deployment, from `PARLEY_BASE_URL`, `PARLEY_TOKEN_A` and `PARLEY_TOKEN_B`.
 */
export type TargetMode = 'http' | 'msw' | 'external';

/** What a mode allows; tests that need more are skipped with `runIf` under a describe naming why. */
export interface TargetCapabilities {
  /** The reference server's internals: its ManualClock and the contract's scripted model. */
  internals: boolean;
  /** The model obeys the stand-in model's directives (`/say`, `/tool`, `/fail`, `/delay`, `/then`). */
  directives: boolean;
  /** A client abort really closes the connection the server is writing to (not so under msw). */
  disconnects: boolean;
}

/** Catalogue names the suite uses in valid session bodies (a deployment may have other ones). */
export interface TargetCatalogue {
  agentId: string;
  model: string;
  provider: string;
}

/** One running target: two users' clients and, for the reference-server modes, its internals. */
export interface Target {
  mode: TargetMode;
  baseUrl: string;
  /** A client of user A and one of user B (each sees only its own sessions). */
  clientA: Parley;
  clientB: Parley;
  tokenA: string;
  tokenB: string;
  /** The reference server's clock (reference-server modes only): move time instead of sleeping. */
  clock: ManualClock | undefined;
  server: ReferenceServer | undefined;
  catalogue: TargetCatalogue;
  /** A client with any token (or none) and options, talking to the same target the same way. */
  client(options?: Partial<ParleyOptions>): Parley;
  /** The fetch the clients use; wrap it to look at raw responses. */
  fetch: FetchLike;
  /** Checks every response `fetch` gets against the OpenAPI document; a test fails on a finding. */
  openApi: OpenApiCheck;
  close(): Promise<void>;
}

// msw patches globalThis.fetch on listen(): the http mode keeps the real one from before.
const realFetch: FetchLike = globalThis.fetch.bind(globalThis);
// In msw mode the clients call whatever the global fetch is at request time (msw's, while listening).
const globalFetch: FetchLike = (request) => globalThis.fetch(request);

const MSW_BASE_URL = 'http://parley.contract.test';
const USERS = [
  { name: 'alice', token: 'contract-token-alice' },
  { name: 'bob', token: 'contract-token-bob' },
] as const;
/** The reference server's clock starts here (Unix ms). */
const CLOCK_START = 1_700_000_000_000;
/** Fail fast instead of hanging when a target does not answer. */
const CLIENT_TIMEOUT_MS = 10_000;

/**
 * The modes to run: `http` and `msw` by default; the single mode named by `PARLEY_CONTRACT_TARGET`
 * otherwise (`external` needs `PARLEY_BASE_URL`, `PARLEY_TOKEN_A`, `PARLEY_TOKEN_B`).
 */
export function targets(): TargetMode[] {
  const named = process.env.PARLEY_CONTRACT_TARGET?.trim();
  if (!named) return ['http', 'msw'];
  if (named === 'http' || named === 'msw' || named === 'external') return [named];
  throw new Error(`PARLEY_CONTRACT_TARGET must be http, msw or external, got "${named}"`);
}

/** What a mode can do, known before any target starts (so `it.runIf` can use it). */
export function capabilities(mode: TargetMode): TargetCapabilities {
  if (mode === 'external') {
    return {
      internals: false,
      directives: process.env.PARLEY_CONTRACT_DIRECTIVES !== 'false',
      disconnects: true,
    };
  }
  return { internals: true, directives: true, disconnects: mode === 'http' };
}

/** Reasons shown as describe titles around the tests a mode skips. */
export const NEEDS_INTERNALS = 'reference server only (moves the server clock or scripts the model)';
export const NEEDS_DIRECTIVES = 'model follows stand-in directives';
export const NEEDS_DISCONNECT = 'real connection only (msw does not end a mocked body on abort)';

/**
 * Registers `beforeAll`/`afterAll` that start and stop the target of `mode`, and returns a handle
 * whose fields are readable inside tests. After each test, every response it got must match the
 * OpenAPI document (see {@link OpenApiCheck}), or the test fails.
 */
export function useTarget(mode: TargetMode): Target {
  let current: Target | undefined;
  beforeAll(async () => {
    current = await startTarget(mode);
  });
  afterEach(async () => {
    if (!current) return;
    await current.openApi.settled();
    const failures = current.openApi.take();
    if (failures.length > 0) {
      throw new Error(`Responses that break the OpenAPI document:\n${failures.join('\n')}`);
    }
  });
  afterAll(async () => {
    await current?.close();
    current = undefined;
  });
  return new Proxy({} as Target, {
    get(_, key) {
      if (!current) throw new Error(`The ${mode} target is not running (read it inside a test)`);
      return current[key as keyof Target];
    },
  });
}

/** Starts one target. */
export async function startTarget(mode: TargetMode): Promise<Target> {
  if (mode === 'external') return externalTarget();
  const clock = new ManualClock(CLOCK_START);
  const options = { users: USERS, clock, model: contractModel() };
  if (mode === 'http') {
    const running = await startServer({ port: 0, ...options });
    return referenceTarget(mode, running.url, realFetch, running.server, clock, () => running.close());
  }
  const server = createReferenceServer(options);
  const mock = setupServer(...createHandlers(server, { baseUrl: MSW_BASE_URL }));
  mock.listen({ onUnhandledRequest: 'error' });
  return referenceTarget(mode, MSW_BASE_URL, globalFetch, server, clock, async () => {
    server.abortReplies();
    mock.close();
  });
}

function referenceTarget(
  mode: TargetMode,
  baseUrl: string,
  fetch: FetchLike,
  server: ReferenceServer,
  clock: ManualClock,
  close: () => Promise<void>,
): Target {
  const [alice, bob] = USERS;
  return build({
    mode,
    baseUrl,
    fetch,
    tokenA: alice.token,
    tokenB: bob.token,
    clock,
    server,
    catalogue: { agentId: 'weather', model: 'parley-stand-in-1', provider: 'erp' },
    close,
  });
}

function externalTarget(): Target {
  const baseUrl = process.env.PARLEY_BASE_URL;
  const tokenA = process.env.PARLEY_TOKEN_A;
  const tokenB = process.env.PARLEY_TOKEN_B;
  if (!baseUrl || !tokenA || !tokenB) {
    throw new Error(
      'PARLEY_CONTRACT_TARGET=external needs PARLEY_BASE_URL, PARLEY_TOKEN_A and PARLEY_TOKEN_B ' +
        '(the tokens of two different users)',
    );
  }
  return build({
    mode: 'external',
    baseUrl,
    fetch: realFetch,
    tokenA,
    tokenB,
    clock: undefined,
    server: undefined,
    catalogue: {
      agentId: process.env.PARLEY_CONTRACT_AGENT_ID ?? 'assistant',
      model: process.env.PARLEY_CONTRACT_MODEL ?? 'parley-stand-in-1',
      provider: process.env.PARLEY_CONTRACT_PROVIDER ?? 'erp',
    },
    close: async () => {},
  });
}

function build(init: Omit<Target, 'clientA' | 'clientB' | 'client' | 'openApi'>): Target {
  const openApi = new OpenApiCheck(init.baseUrl);
  const fetch = openApi.wrap(init.fetch);
  const client = (options: Partial<ParleyOptions> = {}) =>
    new Parley({
      baseUrl: init.baseUrl,
      fetch,
      timeoutMs: CLIENT_TIMEOUT_MS,
      // A contract test wants the server's first answer, not a retried one.
      maxRetries: 0,
      ...options,
    });
  return {
    ...init,
    fetch,
    openApi,
    client,
    clientA: client({ token: init.tokenA }),
    clientB: client({ token: init.tokenB }),
  };
}
