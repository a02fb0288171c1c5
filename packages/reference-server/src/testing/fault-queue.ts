import { checkOptions, type OptionKeys } from '../utils/check-options.js';
import { type ChaosOptions, chaosMatches, resolveChaos } from './chaos-options.js';
import { type Fault, validateFault } from './fault.js';
import { matchesPath, type PathPattern } from './path-pattern.js';
import { checkRequestMatch } from './request-match.js';
import type { ChaosMark, SeededChaos } from './seeded-chaos.js';

/** A one-shot fault: the next request that matches gets it (`times` requests in all). */
export interface QueuedFault extends Fault {
  /** Which requests it applies to; default: any request outside the control routes. */
  match?: { method?: string; path?: PathPattern };
  /** How many matching requests get it. Default 1. */
  times?: number;
}

/**
 * Every key of {@link QueuedFault}, with its type, checked by `faults.next()`: a new fault field is
 * one more line here (TypeScript fails until it is).
 */
export const QUEUED_FAULT_KEYS = {
  status: 'number',
  code: 'string',
  retryAfterSeconds: 'number',
  latencyMs: 'number',
  delayMs: 'number',
  cutAfterEvents: 'number',
  drop: 'boolean',
  dropAfterEvents: 'number',
  malformed: 'boolean',
  match: 'object',
  times: 'number',
} as const satisfies OptionKeys<QueuedFault>;

/** One-shot faults set from code (`server.faults.next(...)`), consumed by the next matching request. */
export class FaultQueue {
  #queue: Array<{ fault: Fault; match: QueuedFault['match']; left: number }> = [];
  #chaos: { options: ChaosOptions; drawer: Promise<SeededChaos> } | undefined;

  /**
   * Queues a fault for the next matching request.
   *
   * @example
   * server.faults.next({ status: 503 });
   * server.faults.next({ match: { method: 'POST', path: '/v1/messages/*\/stream' }, cutAfterEvents: 2 });
   */
  next(fault: QueuedFault): void {
    checkOptions(fault, QUEUED_FAULT_KEYS, 'faults.next()');
    checkRequestMatch(fault.match, 'faults.next()');
    const { match, times = 1, ...rest } = fault;
    if (!Number.isInteger(times) || times < 1) throw new TypeError('Fault times must be an integer >= 1');
    this.#queue.push({ fault: validateFault(rest), match, left: times });
  }

  /** Drops every queued fault. */
  clear(): void {
    this.#queue = [];
  }

  /**
   * Seeded chaos: from now on a share (`rate`) of the matching requests get a fault of one of
   * `kinds`, the same ones for the same requests and seed (docs/testing.md, "Seeded chaos"); a queued
   * fault or a fault header wins over it. `false` turns it off. `server.reset()` puts back the
   * server's `chaos` option (with fresh counts); {@link clear} leaves chaos on.
   *
   * @example
   * server.faults.chaos({ rate: 0.05, seed: 42, kinds: ['status', 'latency'] });
   */
  chaos(options: ChaosOptions | false): void {
    if (options === false) {
      this.#chaos = undefined;
      return;
    }
    const settings = resolveChaos(options);
    // The drawing is loaded when chaos is first set: a browser bundle that never uses it does not carry it.
    const drawer = import('./seeded-chaos.js').then((module) => new module.SeededChaos(settings));
    this.#chaos = { options: { ...options }, drawer };
  }

  /** The chaos settings in force, if any. */
  get chaosOptions(): ChaosOptions | undefined {
    return this.#chaos?.options;
  }

  /**
   * The fault seeded chaos gives this request, with its mark for the journal (undefined for none);
   * undefined at once when chaos is off.
   */
  drawChaos(
    method: string,
    pathname: string,
  ): Promise<{ fault: Fault; mark: ChaosMark } | undefined> | undefined {
    const chaos = this.#chaos;
    if (chaos === undefined || !chaosMatches(chaos.options, method, pathname)) return undefined;
    return chaos.drawer.then((drawer) => drawer.draw(method, pathname));
  }

  /** True when no fault is queued and chaos is off (the toolkit then looks no further). */
  get isEmpty(): boolean {
    return this.#queue.length === 0 && this.#chaos === undefined;
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
