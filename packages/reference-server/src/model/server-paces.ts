import { checkStreamPace, type StreamPace } from './stream-pace-options.js';

/**
 * The pace of a server's streamed replies: the server's own (its `pace` option, changed by
 * `setPace`) and one per session set with `setPace(pace, { sessionId })`. A full reset puts the
 * option back and forgets the sessions'.
 */
export class ServerPaces {
  readonly #initial: StreamPace | undefined;
  #server: StreamPace | undefined;
  readonly #sessions = new Map<string, StreamPace>();

  constructor(pace: StreamPace | undefined) {
    this.#initial = pace && checkStreamPace(pace, 'createReferenceServer: pace');
    this.#server = this.#initial;
  }

  /** The server's pace now. */
  get server(): StreamPace | undefined {
    return this.#server;
  }

  /** The pace of a session's replies: its own, else the server's. */
  of(sessionId: string): StreamPace | undefined {
    return this.#sessions.get(sessionId) ?? this.#server;
  }

  /** Sets the server's pace, or one session's; `undefined` takes it off. */
  set(pace: StreamPace | undefined, scope: { sessionId?: string } = {}): void {
    const checked = pace && checkStreamPace(pace, 'setPace: pace');
    if (scope.sessionId === undefined) this.#server = checked;
    else if (checked === undefined) this.#sessions.delete(scope.sessionId);
    else this.#sessions.set(scope.sessionId, checked);
  }

  reset(): void {
    this.#server = this.#initial;
    this.#sessions.clear();
  }
}
