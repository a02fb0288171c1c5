import { defineTool } from '@parley/sdk';
import { z } from 'zod';
import { systemClock, type WorkerClock } from './clock.js';

const TEMPERATURES: Readonly<Record<string, number>> = { paris: 18, london: 14, tokyo: 22, oslo: 6 };

/** How long `get_weather` pretends to work when `delayMs` is not given. */
export const DEFAULT_TOOL_DELAY_MS = 500;

export interface WeatherToolOptions {
  /** How long the lookup takes (it stands for the upstream API). Default {@link DEFAULT_TOOL_DELAY_MS}. */
  delayMs?: number;
  /** The time the lookup waits on. Default: real time. */
  clock?: WorkerClock;
}

/** The worker's tool: a slow weather lookup that stops as soon as its signal aborts. */
export function createWeatherTool(options: WeatherToolOptions = {}) {
  const { delayMs = DEFAULT_TOOL_DELAY_MS, clock = systemClock } = options;
  return defineTool({
    name: 'get_weather',
    description: 'Current temperature in a city, in °C',
    input: z.object({ city: z.string().min(1) }),
    output: z.object({ city: z.string(), tempC: z.number() }),
    async run({ city }, { signal }) {
      await clock.sleep(delayMs, signal);
      const tempC = TEMPERATURES[city.toLowerCase()];
      if (tempC === undefined) throw new Error(`No weather station in ${city}`);
      return { city, tempC };
    },
  });
}
