import type { ConversationScope } from '../conversation/conversation-scope.js';
import type { Model } from '../model/model.js';
import type { Script } from '../model/script-types.js';
import { scriptedModel } from '../model/scripted-model.js';
import type { ChaosOptions } from './chaos-options.js';
import { FaultQueue } from './fault-queue.js';
import { Journal, type JournalLimits } from './journal.js';

/** What every scope starts from: the server's own options. */
export interface ScopeTemplate {
  /** The model the server was created with. */
  readonly model: Model;
  /** The server's `chaos` option. */
  readonly chaos: ChaosOptions | undefined;
  readonly journal: JournalLimits;
}

/**
 * The state one test owns on the server: the model answering its sessions (its script), its queued
 * faults and chaos, and its journal. The default scope (requests without `x-parley-test-id`) is one
 * too. Its sessions live in the server's session store, marked with its {@link id}; the
 * {@link ScopeRegistry} keeps the scopes. Tests see one through a `TestHandle`.
 */
export class Scope implements ConversationScope {
  readonly journal: Journal;
  readonly faults = new FaultQueue();
  #model: Model;

  constructor(
    readonly id: string | undefined,
    private readonly template: ScopeTemplate,
  ) {
    this.#model = template.model;
    this.journal = new Journal(template.journal);
    if (template.chaos !== undefined) this.faults.chaos(template.chaos);
  }

  /** The model answering this scope's sessions, read per reply. */
  get model(): Model {
    return this.#model;
  }

  /** Answers this scope's sessions with `model` from their next reply on. */
  setModel(model: Model): void {
    this.#model = model;
  }

  /** Answers this scope's sessions with a scripted model. */
  script(script: Script): void {
    this.#model = scriptedModel(script);
  }

  /** Back to the model the server was created with. */
  restoreModel(): void {
    this.#model = this.template.model;
  }

  /** Journal, faults, chaos and model as the template made them (sessions are the store's). */
  clear(): void {
    this.journal.clear();
    this.faults.clear();
    this.faults.chaos(this.template.chaos ?? false);
    this.restoreModel();
  }
}
