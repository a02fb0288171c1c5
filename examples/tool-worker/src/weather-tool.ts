import { setTimeout as sleep } from 'node:timers/promises';
import { defineTool } from '@parley/sdk';
import { z } from 'zod';

const TEMPERATURES: Readonly<Record<string, number>> = { paris: 18, london: 14, tokyo: 22, oslo: 6 };

/** The worker's tool: a slow weather lookup (`delayMs` stands for the upstream API). */
export function createWeatherTool(delayMs: number) {
  return defineTool({
    name: 'get_weather',
    description: 'Current temperature in a city, in °C',
    input: z.object({ city: z.string().min(1) }),
    output: z.object({ city: z.string(), tempC: z.number() }),
    async run({ city }, { signal }) {
      await sleep(delayMs, undefined, { signal });
      const tempC = TEMPERATURES[city.toLowerCase()];
      if (tempC === undefined) throw new Error(`No weather station in ${city}`);
      return { city, tempC };
    },
  });
}
