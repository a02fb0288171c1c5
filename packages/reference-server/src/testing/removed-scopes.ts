import { HttpError } from '../http-error.js';

/**
 * The ids of test scopes the server removed on its own (idle), newest last, so a later request
 * of that test is refused with `410` rather than answered by a fresh scope and the server's default
 * model. Bounded: beyond `limit` ids, the oldest is forgotten (its test's next request then starts
 * a fresh scope, as a new test would).
 */
export class RemovedScopes {
  readonly #removed = new Set<string>();

  constructor(private readonly limit: number) {}

  /** Remembers that `id` was removed after its idle time. */
  note(id: string): void {
    this.#removed.delete(id);
    this.#removed.add(id);
    if (this.#removed.size > this.limit) this.#removed.delete(this.#removed.values().next().value as string);
  }

  /** Forgets `id`: its next request starts a fresh scope. */
  forget(id: string): void {
    this.#removed.delete(id);
  }

  clear(): void {
    this.#removed.clear();
  }

  /** The error a protocol request of a removed scope gets; undefined when `id` was not removed. */
  refusal(id: string, idleMs: number): HttpError | undefined {
    if (!this.#removed.has(id)) return undefined;
    const scope = `The test scope ${JSON.stringify(id)}`;
    const refused = 'refused rather than answered by another model';
    const again = 'a control request with this test id (or a new id) starts it again';
    return new HttpError(
      'test_scope_expired',
      `${scope} was removed after ${idleMs} ms idle; ${refused}: raise testScopes: { idleMs }, or ${again}`,
      { details: { testId: id, idleMs } },
    );
  }
}
