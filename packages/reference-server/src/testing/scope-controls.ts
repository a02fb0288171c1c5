import type { Model } from '../model/model.js';
import type { Script } from '../model/script-types.js';
import { checkOptions } from '../utils/check-options.js';
import type { FaultQueue } from './fault-queue.js';
import type { Journal } from './journal.js';
import type { ScopeRegistry } from './scope-registry.js';
import { type TestHandle, testHandle } from './test-handle.js';

/** What a server handle offers of its scopes in code: the default scope's, and a test's handle. */
export interface ScopeControls {
  /** Every request without `x-parley-test-id` and its reply, oldest first (testing toolkit). */
  readonly journal: Journal;
  /** One-shot faults for the next matching requests without a test id (testing toolkit). */
  readonly faults: FaultQueue;
  /**
   * Resets state. With no argument: deletes every session (aborting running replies) and every test
   * scope, clears the journal and the queued faults, puts back the model the server was created
   * with, and asks the extension host to put back what requests changed (the built-in host: quota
   * windows and the `erp` provider's data). With `{ user }`: deletes that user's sessions and
   * journal entries only. With `{ testId }`: that test scope only (its sessions, journal, faults
   * and script), as `POST /_parley/reset` with its `x-parley-test-id` does; the test's later
   * requests start a clean scope.
   */
  reset(options?: { user?: string; testId?: string }): void;
  /**
   * One test's view of its scope (`x-parley-test-id`): its `journal`, `faults`, `script(...)` and
   * `model`, as the requests with that header see them. Reading makes no scope; setting a script,
   * a fault or chaos does (as a control request would).
   */
  testScope(testId: string): TestHandle;
  /** Answers every following request without a test id with this model (until `reset`). */
  setModel(model: Model): void;
  /**
   * Answers every following request without a test id with a scripted model: rules, a list of
   * turns or a function (see `scriptedModel`). Shorthand for `setModel(scriptedModel(script))`.
   */
  script(script: Script): void;
}

/** The {@link ScopeControls} of a server over its registry (the model is the server's getter). */
export function scopeControls(scopes: ScopeRegistry): ScopeControls {
  const scope = scopes.default;
  return {
    journal: scope.journal,
    faults: scope.faults,
    testScope: (testId) => testHandle(scopes, testId),
    reset: (options = {}) => {
      checkOptions(options, { user: 'string', testId: 'string' }, 'server.reset()');
      const { testId, ...rest } = options;
      scopes.reset(testId === undefined ? scope : scopes.detached(testId), rest);
    },
    setModel: (model) => scope.setModel(model),
    script: (script) => scope.script(script),
  };
}
