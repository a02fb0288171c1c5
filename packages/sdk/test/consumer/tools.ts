// The same tool, defined with each schema library an application may bring. Compiled by the
// consumer test (scripts/consumer-test.mjs) in a project that installed the packed packages.
import { defineTool, jsonSchema } from '@parley/sdk';
import { toStandardJsonSchema } from '@valibot/to-json-schema';
import { type } from 'arktype';
import * as v from 'valibot';
import { z } from 'zod';

const DESCRIPTION = 'Current weather for a city';
const temperature = (city: string) => ({ temperatureC: city === 'Paris' ? 18 : 21 });

export const zodTool = defineTool({
  name: 'get_weather',
  description: DESCRIPTION,
  input: z.object({ city: z.string().describe('City name') }),
  output: z.object({ temperatureC: z.number() }),
  run: ({ city }) => temperature(city),
});

export const valibotTool = defineTool({
  name: 'get_weather',
  description: DESCRIPTION,
  input: toStandardJsonSchema(v.object({ city: v.pipe(v.string(), v.description('City name')) })),
  output: toStandardJsonSchema(v.object({ temperatureC: v.number() })),
  run: ({ city }) => temperature(city),
});

export const arktypeTool = defineTool({
  name: 'get_weather',
  description: DESCRIPTION,
  input: type({ city: type('string').describe('City name') }),
  output: type({ temperatureC: 'number' }),
  run: ({ city }) => temperature(city),
});

export const jsonSchemaTool = defineTool({
  name: 'get_weather',
  description: DESCRIPTION,
  input: jsonSchema<{ city: string }>({
    type: 'object',
    properties: { city: { type: 'string', description: 'City name' } },
    required: ['city'],
  }),
  run: ({ city }) => temperature(city),
});

// The input types are inferred from each library (a wrong one fails the type check).
export const inferred: Array<(input: { city: string }) => unknown> = [
  (input) => zodTool.run(input, undefined as never),
  (input) => valibotTool.run(input, undefined as never),
  (input) => arktypeTool.run(input, undefined as never),
  (input) => jsonSchemaTool.run(input, undefined as never),
];
// @ts-expect-error a number is not a city
zodTool.run({ city: 1 }, undefined as never);
// @ts-expect-error a number is not a city
valibotTool.run({ city: 1 }, undefined as never);
// @ts-expect-error a number is not a city
arktypeTool.run({ city: 1 }, undefined as never);
// @ts-expect-error a number is not a city
jsonSchemaTool.run({ city: 1 }, undefined as never);
