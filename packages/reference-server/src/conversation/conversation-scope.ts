import type { Model } from '../model/model.js';

/**
 * What the core reads of the scope a request belongs to (a test on a shared server, or the default
 * scope of every request without a test id): the id its sessions carry, and the model answering
 * them. The testing toolkit resolves it once per request and hands it over as a request hook.
 */
export interface ConversationScope {
  /** The test id; undefined for the default scope. */
  readonly id: string | undefined;
  /** Read per reply: a script set for the scope answers its sessions from the next reply on. */
  readonly model: Model;
}
