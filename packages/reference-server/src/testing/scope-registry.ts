import type { SessionStore } from '../conversation/session-store.js';
import { HttpError } from '../http-error.js';
import type { Clock } from '../time/clock.js';
import { TEST_ID_HEADER, testIdProblem } from '../utils/test-id.js';
import { RemovedScopes } from './removed-scopes.js';
import { Scope, type ScopeTemplate } from './scope.js';
import { hasWorkInFlight } from './scope-work.js';

/** Test scopes held at most by default; a new one beyond is `503 test_scope_limit_reached`. */
export const DEFAULT_MAX_TEST_SCOPES = 1024;
/** A test scope with no request and no work in flight for this long (wall clock) is removed. 10 minutes. */
export const DEFAULT_TEST_SCOPE_IDLE_MS = 10 * 60 * 1000;
/** Ids of removed scopes remembered at least (to refuse their late requests with 410). */
const REMOVED_IDS_KEPT = 4096;

/** Options of {@link ScopeRegistry}. */
export interface ScopeRegistryOptions {
  /**
   * The clock idleness is measured on: the wall clock, never the server's injectable `clock` (a
   * test that moves a ManualClock past the idle time must not lose its own scope).
   */
  idleClock: Clock;
  sessions: SessionStore;
  template: ScopeTemplate;
  /** Scopes held at most. Default {@link DEFAULT_MAX_TEST_SCOPES}. */
  max?: number | undefined;
  /** Idle time before a scope without work in flight goes. Default {@link DEFAULT_TEST_SCOPE_IDLE_MS}. */
  idleMs?: number | undefined;
  /** A full reset (no test id): what the server resets besides sessions and scopes. */
  onFullReset?: () => void;
}

/**
 * The server's registry of test scopes: one per `x-parley-test-id`, made by the test's first
 * authenticated or control request (never by a refused or unauthenticated one, nor by reading it),
 * bounded in number (a new scope beyond is refused, no scope is evicted for it), and removed by its
 * reset or after an idle time (wall clock) in which it had no request and no work in flight (a
 * running reply, a client tool call not settled). Removing a scope deletes its sessions; a removed
 * id is remembered, so its test's next protocol request gets `410` instead of a fresh scope
 * answered by another model.
 */
export class ScopeRegistry {
  readonly default: Scope;
  // In order of last use: the first ones are the idlest.
  readonly #scopes = new Map<string, { scope: Scope; lastUsed: number }>();
  readonly #removed: RemovedScopes;
  readonly #max: number;
  readonly #idleMs: number;

  constructor(private readonly options: ScopeRegistryOptions) {
    this.#max = checkPositive('max test scopes', options.max ?? DEFAULT_MAX_TEST_SCOPES);
    this.#idleMs = checkPositive('test scope idle ms', options.idleMs ?? DEFAULT_TEST_SCOPE_IDLE_MS);
    this.#removed = new RemovedScopes(Math.max(REMOVED_IDS_KEPT, this.#max));
    this.default = new Scope(undefined, options.template);
  }

  /**
   * The scope of a request: the default scope without `x-parley-test-id`, the test's scope when the
   * server holds it, else a new one, registered only when `mayCreate` says the request speaks for
   * a user (a `410` for a removed id, a `503` when full) and otherwise detached (it lives as long
   * as the request). An `invalid_test_id` error for an empty, over-long or control-character id.
   */
  of(request: Request, mayCreate: (request: Request) => boolean): Scope | HttpError {
    const id = request.headers.get(TEST_ID_HEADER);
    if (id === null) return this.default;
    const problem = testIdProblem(id);
    if (problem !== undefined) {
      return new HttpError('invalid_test_id', `The ${TEST_ID_HEADER} header ${problem}`, {
        details: { header: TEST_ID_HEADER },
      });
    }
    const held = this.#touch(id);
    if (held !== undefined) return held;
    if (!mayCreate(request)) return new Scope(id, this.options.template);
    return this.#removed.refusal(id, this.#idleMs) ?? this.#add(new Scope(id, this.options.template));
  }

  /**
   * `scope` registered: a control request or a test's own code sets it up, so a removed id starts
   * again. The scope held for its id when there is one.
   *
   * @throws HttpError `test_scope_limit_reached` when the registry is full.
   */
  admit(scope: Scope): Scope {
    if (scope.id === undefined) return scope;
    const held = this.#touch(scope.id);
    if (held !== undefined) return held;
    const added = this.#add(scope);
    if (added instanceof HttpError) throw added;
    this.#removed.forget(scope.id);
    return added;
  }

  /** The scope held for `id`, if any; reading neither makes nor refreshes one. */
  find(id: string): Scope | undefined {
    return this.#scopes.get(id)?.scope;
  }

  /**
   * The scope held for `id`, else a new one from the template, not registered until
   * {@link admit}ted.
   *
   * @throws TypeError for an id the `x-parley-test-id` header could not carry.
   */
  detached(id: string): Scope {
    const problem = testIdProblem(id);
    if (problem !== undefined) throw new TypeError(`The test id ${problem}`);
    return this.find(id) ?? new Scope(id, this.options.template);
  }

  /** Test scopes held now (the default scope not counted). */
  get size(): number {
    return this.#scopes.size;
  }

  /**
   * Resets a scope. The default scope without a user: everything (every session, every test scope,
   * what is remembered of removed ones, the server's own state). A test scope: its sessions,
   * journal, faults and script; the scope is removed and its id starts afresh (a reset is the
   * test's own act, so its next request is answered from a clean scope, as a new test's would be:
   * a server that outlives a run lets the same test id run again). With `user`: that user's
   * sessions and journal entries in the scope.
   */
  reset(scope: Scope, options: { user?: string | undefined } = {}): void {
    const { sessions } = this.options;
    const { user } = options;
    if (user !== undefined) {
      if (scope.id === undefined) for (const session of sessions.list(user)) sessions.delete(session);
      else sessions.clearScope(scope.id, user);
      scope.journal.clear({ user });
    } else if (scope.id === undefined) {
      for (const id of [...this.#scopes.keys()]) this.#remove(id);
      this.#removed.clear();
      sessions.clear();
      scope.clear();
      this.options.onFullReset?.();
    } else if (this.#scopes.has(scope.id)) {
      this.#remove(scope.id);
      this.#removed.forget(scope.id);
    } else {
      this.#removed.forget(scope.id);
      sessions.clearScope(scope.id);
    }
  }

  /** The held scope of `id`, marked as just used; idle ones are removed first. */
  #touch(id: string): Scope | undefined {
    const now = this.options.idleClock.now();
    this.#expire(now);
    const held = this.#scopes.get(id);
    if (held === undefined) return undefined;
    this.#scopes.delete(id);
    held.lastUsed = now;
    this.#scopes.set(id, held);
    return held.scope;
  }

  #add(scope: Scope): Scope | HttpError {
    if (this.#scopes.size >= this.#max) {
      return new HttpError(
        'test_scope_limit_reached',
        `The server holds ${this.#max} test scopes, its limit (testScopes: { max }), all in use: ` +
          'raise it, or reset finished tests by id',
        { details: { maxTestScopes: this.#max } },
      );
    }
    const id = scope.id as string;
    // Sessions of an id no scope holds were made by a request that was still running when its
    // scope was reset or removed: they are not the new scope's (nor do they count in its order).
    if (this.options.sessions.hasScope(id)) this.options.sessions.clearScope(id);
    this.#scopes.set(id, { scope, lastUsed: this.options.idleClock.now() });
    return scope;
  }

  // From the idlest: a scope idle for idleMs goes, unless work is in flight in it (a running reply,
  // a client tool call not settled), which counts as a use. Stops at the first scope used recently.
  #expire(now: number): void {
    for (const [id, held] of this.#scopes) {
      if (now - held.lastUsed < this.#idleMs) return;
      if (hasWorkInFlight(this.options.sessions, id)) {
        this.#scopes.delete(id);
        held.lastUsed = now;
        this.#scopes.set(id, held);
      } else {
        this.#remove(id);
        this.#removed.note(id);
      }
    }
  }

  #remove(id: string): void {
    const held = this.#scopes.get(id);
    this.#scopes.delete(id);
    this.options.sessions.clearScope(id);
    held?.scope.clear();
  }
}

function checkPositive(name: string, value: number): number {
  if (!Number.isSafeInteger(value) || value < 1) {
    throw new TypeError(`${name} must be an integer >= 1, got ${value}`);
  }
  return value;
}
