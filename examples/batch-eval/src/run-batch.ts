import type { Parley } from '@parley/sdk';
import { type EvalResult, evaluatePrompt } from './evaluate.js';
import type { Prompt } from './prompts.js';

/** Prompts in flight at once when `--concurrency` is not given. */
export const DEFAULT_CONCURRENCY = 4;

/**
 * Evaluates every prompt with at most `concurrency` requests in flight. `onResult` is called as each
 * one finishes; the results come back in file order.
 */
export async function runBatch(
  client: Parley,
  prompts: readonly Prompt[],
  options: { concurrency: number; onResult?: (result: EvalResult) => void },
): Promise<EvalResult[]> {
  const results: EvalResult[] = new Array(prompts.length);
  let next = 0;
  const lane = async (): Promise<void> => {
    while (next < prompts.length) {
      const index = next++;
      const result = await evaluatePrompt(client, prompts[index]!);
      results[index] = result;
      options.onResult?.(result);
    }
  };
  await Promise.all(Array.from({ length: Math.min(options.concurrency, prompts.length) }, lane));
  return results;
}
