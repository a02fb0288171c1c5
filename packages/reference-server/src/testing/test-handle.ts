import type { Model } from '../model/model.js';
import type { Script } from '../model/script-types.js';
import type { FaultQueue } from './fault-queue.js';
import type { Journal } from './journal.js';
import type { Scope } from './scope.js';
import type { ScopeRegistry } from './scope-registry.js';

/** What a test sets and reads of its faults: the part of a {@link FaultQueue} a test uses. */
export type TestFaults = Pick<
  FaultQueue,
  'next' | 'chaos' | 'clear' | 'pending' | 'isEmpty' | 'chaosOptions'
>;

/**
 * One test's view of its scope on the server (`server.testScope(testId)`): what the requests with
 * that `x-parley-test-id` see. Reading makes no scope: before the test's first request (or after its
 * scope was removed) the journal is empty, no fault is pending and the model is the server's.
 * Setting a script, a fault or chaos makes the scope (as a control request does), and may throw
 * `test_scope_limit_reached` when the server holds its maximum of test scopes.
 */
export interface TestHandle {
  readonly id: string;
  /** Whether the server holds this test's scope now. */
  readonly active: boolean;
  /** The model answering the test's sessions. */
  readonly model: Model;
  /** The test's journal (a new empty one while the server holds no scope for it). */
  readonly journal: Journal;
  readonly faults: TestFaults;
  /** Answers the test's sessions with a scripted model. */
  script(script: Script): void;
  /** As `server.reset({ testId })`: the test's sessions, journal, faults and script. */
  reset(): void;
}

/**
 * The handle of test `id` over `registry`.
 *
 * @throws TypeError for an id the `x-parley-test-id` header could not carry.
 */
export function testHandle(registry: ScopeRegistry, id: string): TestHandle {
  registry.detached(id);
  // Reads see the held scope, or what a new one would be; writes register it.
  const read = (): Scope => registry.detached(id);
  const write = (): Scope => registry.admit(registry.detached(id));
  const faults: TestFaults = {
    next: (fault) => write().faults.next(fault),
    chaos: (options) => write().faults.chaos(options),
    clear: () => registry.find(id)?.faults.clear(),
    get pending() {
      return read().faults.pending;
    },
    get isEmpty() {
      return read().faults.isEmpty;
    },
    get chaosOptions() {
      return read().faults.chaosOptions;
    },
  };
  return {
    id,
    get active() {
      return registry.find(id) !== undefined;
    },
    get model() {
      return read().model;
    },
    get journal() {
      return read().journal;
    },
    faults,
    script: (script) => write().script(script),
    reset: () => registry.reset(read()),
  };
}
