import { type Fault, validateFault } from './fault.js';
import { matchesPath, type PathPattern } from './path-pattern.js';

/** A one-shot fault: the next request that matches gets it (`times` requests in all). */
export interface QueuedFault extends Fault {
  /** Which requests it applies to; default: any request outside the control routes. */
  match?: { method?: string; path?: PathPattern };
  /** How many matching requests get it. Default 1. */
  times?: number;
}

/** One-shot faults set from code (`server.faults.next(...)`), consumed by the next matching request. */
export class FaultQueue {
  #queue: Array<{ fault: Fault; match: QueuedFault['match']; left: number }> = [];

  /**
   * Queues a fault for the next matching request.
   *
   * @example
   * server.faults.next({ status: 503 });
   * server.faults.next({ match: { method: 'POST', path: '/v1/messages/*\/stream' }, cutAfterEvents: 2 });
   */
  next(fault: QueuedFault): void {
    const { match, times = 1, ...rest } = fault;
    if (!Number.isInteger(times) || times < 1) throw new TypeError('Fault times must be an integer >= 1');
    this.#queue.push({ fault: validateFault(rest), match, left: times });
  }

  /** Drops every queued fault. */
  clear(): void {
    this.#queue = [];
  }

  /** True when no fault is queued (the toolkit then looks no further). */
  get isEmpty(): boolean {
    return this.#queue.length === 0;
  }

  /** Faults still queued, with how many requests each still applies to. */
  get pending(): ReadonlyArray<Fault & { match?: QueuedFault['match']; times: number }> {
    return this.#queue.map(({ fault, match, left }) => ({
      ...fault,
      ...(match === undefined ? {} : { match }),
      times: left,
    }));
  }

  /** Takes the first queued fault matching this request, or undefined. */
  take(method: string, pathname: string): Fault | undefined {
    const index = this.#queue.findIndex(
      ({ match }) =>
        (match?.method === undefined || match.method.toUpperCase() === method.toUpperCase()) &&
        (match?.path === undefined || matchesPath(match.path, pathname)),
    );
    const entry = this.#queue[index];
    if (entry === undefined) return undefined;
    entry.left--;
    if (entry.left === 0) this.#queue.splice(index, 1);
    return entry.fault;
  }
}
