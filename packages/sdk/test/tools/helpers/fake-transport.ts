import type { ToolRequestOptions, ToolTransport } from '@parley/sdk';
import { APIConnectionError, APIError } from '@parley/sdk';

export type CallKind = 'heartbeat' | 'respond' | 'fail';

/** One request the fake received. */
export interface FakeCall {
  kind: CallKind;
  sessionId: string;
  requestId: string;
  output?: Record<string, unknown>;
  message?: string;
  options: ToolRequestOptions | undefined;
  /** `Date.now()` (the fake clock) when the call started. */
  at: number;
  /** Set once the call settled. */
  settledAt?: number;
}

/** What the fake does with a call: resolve (undefined), throw, or return a promise to settle later. */
export type Behaviour = (call: FakeCall) => undefined | Promise<void>;

/**
 * A {@link ToolTransport} that records every call and an event log (`heartbeat:start`,
 * `heartbeat:end`, `respond`, `fail`), so tests can check what happened and in which order.
 */
export class FakeTransport implements ToolTransport {
  readonly calls: FakeCall[] = [];
  readonly log: string[] = [];
  behaviour: Behaviour;

  constructor(behaviour: Behaviour = () => undefined) {
    this.behaviour = behaviour;
  }

  of(kind: CallKind): FakeCall[] {
    return this.calls.filter((c) => c.kind === kind);
  }

  heartbeat(sessionId: string, requestId: string, options?: ToolRequestOptions): Promise<void> {
    return this.#record({ kind: 'heartbeat', sessionId, requestId, options, at: Date.now() });
  }

  respond(
    sessionId: string,
    requestId: string,
    output: Record<string, unknown>,
    options?: ToolRequestOptions,
  ): Promise<void> {
    return this.#record({ kind: 'respond', sessionId, requestId, output, options, at: Date.now() });
  }

  fail(sessionId: string, requestId: string, message: string, options?: ToolRequestOptions): Promise<void> {
    return this.#record({ kind: 'fail', sessionId, requestId, message, options, at: Date.now() });
  }

  async #record(call: FakeCall): Promise<void> {
    this.calls.push(call);
    this.log.push(call.kind === 'heartbeat' ? 'heartbeat:start' : call.kind);
    try {
      await this.behaviour(call);
    } finally {
      call.settledAt = Date.now();
      if (call.kind === 'heartbeat') this.log.push('heartbeat:end');
    }
  }
}

/** An API error as the client throws it (`ConflictError` for 409, `NotFoundError` for 404, ...). */
export function apiError(status: number, code?: string): APIError {
  return APIError.generate({
    status,
    code,
    serverMessage: `status ${status}`,
    headers: new Headers(),
    method: 'POST',
    url: 'http://parley.test/v1/tools',
  });
}

export function connectionError(): APIConnectionError {
  return new APIConnectionError('socket hang up');
}

/** A promise that settles only when the request's signal aborts, like a fetch that never answers. */
export function hangUntilAborted(call: FakeCall): Promise<void> {
  return new Promise((_, reject) => {
    const signal = call.options?.signal;
    if (!signal) return;
    if (signal.aborted) reject(signal.reason);
    signal.addEventListener('abort', () => reject(signal.reason), { once: true });
  });
}

export interface Deferred<T = void> {
  promise: Promise<T>;
  resolve(value: T): void;
  reject(error: unknown): void;
}

export function deferred<T = void>(): Deferred<T> {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}
