import { HttpError } from '../http-error.js';
import type { Clock } from '../time/clock.js';

/** A per-product message quota: at most `messagesPerMinute` sends in any 60-second window. */
export interface QuotaRule {
  /** `customizations.product` this rule limits. */
  product: string;
  messagesPerMinute: number;
}

const WINDOW_MS = 60_000;

/**
 * Sliding-window quotas per product on an injectable clock. A send is counted when it is admitted; a
 * refused send is not counted. Sessions without a product, or with a product no rule names, are not
 * limited. Quotas are off unless rules are given.
 */
export class QuotaTracker {
  readonly #limits = new Map<string, number>();
  readonly #admitted = new Map<string, number[]>();
  readonly #clock: Clock;

  constructor(rules: readonly QuotaRule[], clock: Clock) {
    for (const rule of rules) {
      if (!Number.isInteger(rule.messagesPerMinute) || rule.messagesPerMinute < 1) {
        throw new Error(`Quota of product "${rule.product}": messagesPerMinute must be an integer >= 1`);
      }
      this.#limits.set(rule.product, rule.messagesPerMinute);
    }
    this.#clock = clock;
  }

  /** Forgets every admitted send: each product's window starts empty. */
  reset(): void {
    this.#admitted.clear();
  }

  /**
   * Admits one send of `product` or throws `HttpError('quota_exceeded')` (429) whose
   * `details.retryAfterSeconds` (and `Retry-After` header) is when the oldest send in the window
   * leaves it, rounded up to whole seconds (at least 1).
   */
  admit(product: string | undefined): void {
    if (product === undefined) return;
    const limit = this.#limits.get(product);
    if (limit === undefined) return;
    const now = this.#clock.now();
    const admitted = (this.#admitted.get(product) ?? []).filter((at) => at > now - WINDOW_MS);
    if (admitted.length >= limit) {
      const oldest = admitted[0] ?? now;
      const retryAfterSeconds = Math.max(1, Math.ceil((oldest + WINDOW_MS - now) / 1000));
      this.#admitted.set(product, admitted);
      throw new HttpError(
        'quota_exceeded',
        `Quota of product "${product}" exceeded: ${limit} messages per minute; retry in ${retryAfterSeconds} s`,
        { details: { product, messagesPerMinute: limit, retryAfterSeconds } },
      );
    }
    admitted.push(now);
    this.#admitted.set(product, admitted);
  }
}
