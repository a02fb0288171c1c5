import type { Usage } from '../../wire/index.js';
import type { StopCondition } from './stop-conditions.js';
import type { ToolLoopStep } from './tool-loop-run.js';

/** What one model costs, per million tokens, in the currency of your choice. */
export interface ModelPrice {
  inputPerMTok: number;
  outputPerMTok: number;
}

/** Prices by model id: `{ 'model-id': { inputPerMTok: 3, outputPerMTok: 15 } }`. */
export type ToolLoopPrices = Readonly<Record<string, ModelPrice>>;

/**
 * The price that applies to a loop: `prices[priceModel]`, or the only entry when none is named.
 * Throws a `TypeError` naming the problem for a table the loop cannot use.
 */
export function loopPrice(prices: ToolLoopPrices, priceModel: string | undefined): ModelPrice {
  if (typeof prices !== 'object' || prices === null) {
    throw new TypeError(`runToolLoop: prices must be an object of { inputPerMTok, outputPerMTok } by model`);
  }
  const models = Object.keys(prices);
  const name = priceModel ?? (models.length === 1 ? models[0] : undefined);
  if (name === undefined) {
    throw new TypeError(
      `runToolLoop: prices has ${models.length === 0 ? 'no entries' : `${models.length} models (${models.join(', ')})`}: name the one this loop is priced at with priceModel`,
    );
  }
  const price = Object.hasOwn(prices, name) ? prices[name] : undefined;
  if (price === undefined) {
    throw new TypeError(
      `runToolLoop: prices has no entry "${name}" (priceModel; it has ${models.join(', ') || 'none'})`,
    );
  }
  for (const field of ['inputPerMTok', 'outputPerMTok'] as const) {
    const value = price[field];
    if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) {
      throw new TypeError(
        `runToolLoop: prices["${name}"].${field} must be a number >= 0, got ${String(value)}`,
      );
    }
  }
  return price;
}

/** What a reply's usage cost at `price`. */
export function usageCost(usage: Usage | undefined, price: ModelPrice): number {
  if (!usage) return 0;
  return (usage.inputTokens * price.inputPerMTok + usage.outputTokens * price.outputPerMTok) / 1_000_000;
}

/** The usage of `steps` summed, field by field (steps whose reply reported none count 0). */
export function sumUsage(steps: readonly ToolLoopStep[]): Usage {
  const total = { inputTokens: 0, outputTokens: 0, totalTokens: 0 };
  for (const { reply } of steps) {
    if (!reply.usage) continue;
    total.inputTokens += reply.usage.inputTokens;
    total.outputTokens += reply.usage.outputTokens;
    total.totalTokens += reply.usage.totalTokens;
  }
  return total;
}

/**
 * Stops the loop once the usage summed over its steps reaches any of the given limits:
 * `usageAtLeast({ outputTokens: 50_000 })`, `usageAtLeast({ inputTokens: 1e6, totalTokens: 2e6 })`.
 * The step that crosses a limit is completed (its calls settled) before the loop stops.
 *
 * @example
 * const run = runToolLoop(client, { sessionId, content, tools, stopWhen: usageAtLeast({ outputTokens: 50_000 }) });
 */
export function usageAtLeast(limits: Partial<Usage>): StopCondition {
  const entries = Object.entries(limits ?? {}) as [keyof Usage, unknown][];
  const known = ['inputTokens', 'outputTokens', 'totalTokens'];
  if (entries.length === 0) {
    throw new TypeError('usageAtLeast: give at least one limit: inputTokens, outputTokens or totalTokens');
  }
  for (const [field, value] of entries) {
    if (!known.includes(field)) {
      throw new TypeError(`usageAtLeast: unknown usage field "${field}" (known: ${known.join(', ')})`);
    }
    if (typeof value !== 'number' || !(value > 0)) {
      throw new RangeError(`usageAtLeast: ${field} must be a number > 0, got ${String(value)}`);
    }
  }
  return named(`usageAtLeast(${JSON.stringify(limits)})`, (_step, steps) => {
    const total = sumUsage(steps);
    return entries.some(([field, value]) => total[field] >= (value as number));
  });
}

/**
 * Stops the loop once the cost summed over its steps reaches `amount` (in the currency of
 * `prices`). Needs `runToolLoop({ prices })`: without it the loop rejects with a `TypeError`.
 *
 * @example
 * const run = runToolLoop(client, { sessionId, content, tools, prices, stopWhen: costAtLeast(0.5) });
 */
export function costAtLeast(amount: number): StopCondition {
  if (typeof amount !== 'number' || !(amount > 0)) {
    throw new RangeError(`costAtLeast: amount must be a number > 0, got ${String(amount)}`);
  }
  return named(`costAtLeast(${amount})`, (_step, steps) => {
    let total = 0;
    for (const step of steps) {
      if (step.cost === undefined) {
        throw new TypeError(`costAtLeast(${amount}) needs runToolLoop({ prices }): the steps have no cost`);
      }
      total += step.cost;
    }
    return total >= amount;
  });
}

function named(name: string, condition: StopCondition): StopCondition {
  return Object.defineProperty(condition, 'name', { value: name });
}
