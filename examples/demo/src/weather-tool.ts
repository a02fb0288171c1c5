import { setTimeout as sleep } from 'node:timers/promises';
import { defineTool } from '@parley/sdk';
import { z } from 'zod';

/** A pretend weather service: a lookup table behind a slow call. */
const FORECASTS: Readonly<Record<string, { tempC: number; conditions: string }>> = {
  paris: { tempC: 18, conditions: 'sunny' },
  london: { tempC: 14, conditions: 'light rain' },
  tokyo: { tempC: 22, conditions: 'cloudy' },
};

/**
 * The client tool of the demo. It runs in this process, not on the server: the model asks for it,
 * the SDK runs it and reports its output. `delayMs` stands for a slow upstream API, long enough for
 * the automatic heartbeat to beat a few times.
 */
export function createWeatherTool(delayMs: number) {
  return defineTool({
    name: 'get_weather',
    description: 'Current temperature (°C) and conditions in a city',
    input: z.object({ city: z.string().min(1) }),
    output: z.object({ tempC: z.number(), conditions: z.string() }),
    async run({ city }, { signal }) {
      await sleep(delayMs, undefined, { signal });
      const forecast = FORECASTS[city.toLowerCase()];
      if (!forecast) throw new Error(`No forecast for ${city}`);
      return forecast;
    },
  });
}
