import type { ConversationScope } from '../conversation/conversation-scope.js';
import type { SessionStore } from '../conversation/session-store.js';
import { HttpError } from '../http-error.js';
import type { Model } from '../model/model.js';
import { type Script, scriptedModel } from '../model/scripted-model.js';
import type { Clock } from '../time/clock.js';
import { TEST_ID_HEADER, testIdProblem } from '../utils/test-id.js';
import type { ChaosOptions } from './chaos-options.js';
import { FaultQueue } from './fault-queue.js';
import { Journal, type JournalLimits } from './journal.js';

/** Test scopes kept at most by default; the least recently used one goes first beyond it. */
export const DEFAULT_MAX_TEST_SCOPES = 1024;
/** A test scope with no request for this long (server clock) is removed. Default 10 minutes. */
export const DEFAULT_TEST_SCOPE_IDLE_MS = 10 * 60 * 1000;

/** What every scope starts from: the server's own options. */
export interface ScopeTemplate {
  /** The model the server was created with. */
  model: Model;
  /** The server's `chaos` option. */
  chaos: ChaosOptions | undefined;
  journal: JournalLimits;
}

/**
 * The state one test owns: the model answering its sessions (its script), its queued faults and
 * chaos, and its journal. The default scope (requests without `x-parley-test-id`) is one too.
 * Its sessions live in the server's session store, marked with its {@link id}.
 */
export class TestScope implements ConversationScope {
  model: Model;
  readonly journal: Journal;
  readonly faults = new FaultQueue();
  /** Server-clock time of its latest request. */
  lastUsed: number;

  constructor(
    readonly id: string | undefined,
    private readonly template: ScopeTemplate,
    now: number,
  ) {
    this.model = template.model;
    this.journal = new Journal(template.journal);
    if (template.chaos !== undefined) this.faults.chaos(template.chaos);
    this.lastUsed = now;
  }

  /** Answers this scope's sessions with a scripted model. */
  script(script: Script): void {
    this.model = scriptedModel(script);
  }

  /** Back to the model the server was created with. */
  restoreModel(): void {
    this.model = this.template.model;
  }

  /** Journal, faults, chaos and model as the template made them (sessions are the store's). */
  clear(): void {
    this.journal.clear();
    this.faults.clear();
    this.faults.chaos(this.template.chaos ?? false);
    this.restoreModel();
  }
}

/** Options of {@link TestScopes}. */
export interface TestScopesOptions {
  clock: Clock;
  sessions: SessionStore;
  template: ScopeTemplate;
  /** Scopes kept at most; beyond, the least recently used goes. Default {@link DEFAULT_MAX_TEST_SCOPES}. */
  max?: number | undefined;
  /** Idle time after which a scope goes. Default {@link DEFAULT_TEST_SCOPE_IDLE_MS}. */
  idleMs?: number | undefined;
  /** A full reset (no test id): what the server resets besides sessions and scopes. */
  onFullReset?: () => void;
}

/**
 * The registry of test scopes: one per `x-parley-test-id`, made on its first request, bounded in
 * number and removed after an idle time (server clock) or by its reset. Removing a scope deletes
 * its sessions (aborting their replies).
 */
export class TestScopes {
  readonly default: TestScope;
  // In order of last use: the first ones are the idlest.
  readonly #scopes = new Map<string, TestScope>();
  readonly #max: number;
  readonly #idleMs: number;

  constructor(private readonly options: TestScopesOptions) {
    this.#max = checkPositive('max test scopes', options.max ?? DEFAULT_MAX_TEST_SCOPES);
    this.#idleMs = checkPositive('test scope idle ms', options.idleMs ?? DEFAULT_TEST_SCOPE_IDLE_MS);
    this.default = new TestScope(undefined, options.template, options.clock.now());
  }

  /**
   * The scope of a request: its `x-parley-test-id`, or the default scope without one; an
   * `invalid_test_id` error (to answer with) for an empty, over-long or control-character id.
   */
  of(request: Request): TestScope | HttpError {
    const id = request.headers.get(TEST_ID_HEADER);
    if (id === null) return this.default;
    const problem = testIdProblem(id);
    if (problem === undefined) return this.#scope(id);
    return new HttpError('invalid_test_id', `The ${TEST_ID_HEADER} header ${problem}`, {
      details: { header: TEST_ID_HEADER },
    });
  }

  /**
   * The scope of a test id, made on first use (and idle ones removed then).
   *
   * @throws TypeError for an id {@link of} refuses.
   */
  get(id: string): TestScope {
    const problem = testIdProblem(id);
    if (problem !== undefined) throw new TypeError(`The test id ${problem}`);
    return this.#scope(id);
  }

  #scope(id: string): TestScope {
    const now = this.options.clock.now();
    this.#expire(now);
    let scope = this.#scopes.get(id);
    if (scope === undefined) {
      if (this.#scopes.size >= this.#max) this.#remove(this.#scopes.keys().next().value as string);
      scope = new TestScope(id, this.options.template, now);
    } else {
      this.#scopes.delete(id);
    }
    scope.lastUsed = now;
    this.#scopes.set(id, scope);
    return scope;
  }

  /** Test scopes held now (the default scope not counted). */
  get size(): number {
    return this.#scopes.size;
  }

  /**
   * Resets a scope. The default scope without a user: everything (every session, every test
   * scope, the server's own state). A test scope: its sessions, journal, faults and script (the
   * scope is removed; its next request starts a fresh one). With `user`: that user's sessions and
   * journal entries in the scope.
   */
  reset(scope: TestScope, options: { user?: string | undefined } = {}): void {
    const { sessions } = this.options;
    const { user } = options;
    if (user !== undefined) {
      if (scope.id === undefined) for (const session of sessions.list(user)) sessions.delete(session);
      else sessions.clearScope(scope.id, user);
      scope.journal.clear({ user });
    } else if (scope.id !== undefined) {
      this.#remove(scope.id);
    } else {
      for (const id of [...this.#scopes.keys()]) this.#remove(id);
      sessions.clear();
      scope.clear();
      this.options.onFullReset?.();
    }
  }

  #expire(now: number): void {
    for (const scope of this.#scopes.values()) {
      if (now - scope.lastUsed < this.#idleMs) return;
      this.#remove(scope.id as string);
    }
  }

  #remove(id: string): void {
    const scope = this.#scopes.get(id);
    this.#scopes.delete(id);
    this.options.sessions.clearScope(id);
    scope?.clear();
  }
}

function checkPositive(name: string, value: number): number {
  if (!Number.isSafeInteger(value) || value < 1) {
    throw new TypeError(`${name} must be an integer >= 1, got ${value}`);
  }
  return value;
}
