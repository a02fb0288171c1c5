import { setTimeout as sleep } from 'node:timers/promises';
import { defineTool } from '@parley/sdk';
import { z } from 'zod';

/** What the tools depend on, injectable so a test gets fixed answers. */
export interface ToolEnvironment {
  /** The current time. Default `() => new Date()`. */
  now?: () => Date;
  /** A number in `[0, 1)`. Default `Math.random`. */
  random?: () => number;
  /** How long each tool pretends to work, so its heartbeats show. Default 500 ms. */
  delayMs?: number;
}

/** The local tools of the chat: they run in this process when the model asks for them. */
export function createChatTools(env: ToolEnvironment = {}) {
  const now = env.now ?? (() => new Date());
  const random = env.random ?? Math.random;
  const delayMs = env.delayMs ?? 500;

  const getTime = defineTool({
    name: 'get_time',
    description: 'The current date and time in an IANA time zone (default UTC)',
    input: z.object({ timeZone: z.string().default('UTC') }),
    output: z.object({ timeZone: z.string(), iso: z.string(), local: z.string() }),
    async run({ timeZone }, { signal }) {
      await sleep(delayMs, undefined, { signal });
      const date = now();
      // Throws a RangeError for an unknown zone: runTool reports it to the model as ERROR.
      const local = new Intl.DateTimeFormat('en-GB', { timeZone, dateStyle: 'full', timeStyle: 'short' });
      return { timeZone, iso: date.toISOString(), local: local.format(date) };
    },
  });

  const rollDice = defineTool({
    name: 'roll_dice',
    description: 'Rolls dice and returns each roll and the total',
    input: z.object({
      count: z.number().int().min(1).max(20).default(1),
      sides: z.number().int().min(2).max(100).default(6),
    }),
    output: z.object({ rolls: z.array(z.number().int()), total: z.number().int() }),
    async run({ count, sides }, { signal }) {
      await sleep(delayMs, undefined, { signal });
      const rolls = Array.from({ length: count }, () => 1 + Math.floor(random() * sides));
      return { rolls, total: rolls.reduce((sum, roll) => sum + roll, 0) };
    },
  });

  return [getTime, rollDice];
}
