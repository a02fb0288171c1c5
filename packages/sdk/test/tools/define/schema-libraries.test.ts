import { TOOL_NAME_PATTERN, ToolDefinitionSchema } from '@parley/protocol';
import { defineTool, jsonSchema, type ToolObject, type ToolSchema } from '@parley/sdk';
import { runTool } from '@parley/sdk/tools';
import { toStandardJsonSchema } from '@valibot/to-json-schema';
import { type } from 'arktype';
import * as v from 'valibot';
import { describe, expect, expectTypeOf, test } from 'vitest';
import { z } from 'zod';
import { FakeTransport } from '../helpers/fake-transport.js';

// The same tool, written with each schema library a user may bring.
const inputs = {
  zod: z.object({ city: z.string().describe('City name'), days: z.number().int().optional() }),
  valibot: toStandardJsonSchema(
    v.object({ city: v.pipe(v.string(), v.description('City name')), days: v.optional(v.number()) }),
  ),
  arktype: type({ city: type('string').describe('City name'), 'days?': 'number' }),
  jsonSchema: jsonSchema<{ city: string; days?: number }>({
    type: 'object',
    properties: { city: { type: 'string', description: 'City name' }, days: { type: 'number' } },
    required: ['city'],
  }),
} satisfies Record<string, ToolSchema<unknown, ToolObject>>;

function forecastTool(input: (typeof inputs)[keyof typeof inputs]) {
  return defineTool({
    name: 'forecast',
    description: 'Weather forecast for a city',
    input,
    run: ({ city, days }) => ({ summary: `${city}: sunny for ${days ?? 1} day(s)` }),
  });
}

describe.each(Object.keys(inputs) as (keyof typeof inputs)[])('a tool defined with %s', (library) => {
  const tool = forecastTool(inputs[library]);

  test('has requestArgs that keep the field descriptions and the protocol accepts', () => {
    expect(tool.definition.requestArgs).toMatchObject({
      type: 'object',
      properties: { city: { type: 'string', description: 'City name' } },
      required: ['city'],
    });
    expect(tool.definition.requestArgs).not.toHaveProperty('$schema');
    expect(ToolDefinitionSchema.safeParse(tool.definition).success).toBe(true);
  });

  test('runs the handler with the checked input', async () => {
    const transport = new FakeTransport();
    const pending = { requestId: 'tooluse_1', name: 'forecast', input: { city: 'Paris', days: 2 } };
    const result = await runTool(transport, { sessionId: 's', pending, tool });
    expect(result).toMatchObject({ status: 'COMPLETE', output: { summary: 'Paris: sunny for 2 day(s)' } });
  });

  test('sends invalid model input back to the model as a tool error with the library’s own issue text', async () => {
    const transport = new FakeTransport();
    const pending = { requestId: 'tooluse_1', name: 'forecast', input: { city: 42 } };
    const result = await runTool(transport, { sessionId: 's', pending, tool });
    expect(result.status).toBe('ERROR');
    // The exact text is the library's: compare with what the library itself says.
    const own = await inputs[library]['~standard'].validate({ city: 42 });
    const ownMessage = own.issues?.[0]?.message;
    expect(ownMessage).toEqual(expect.any(String));
    expect(result.error).toContain(`Invalid input for tool "forecast":\n✖ ${ownMessage}`);
    expect(result.error).toMatch(/→ at city/);
    expect(transport.of('fail')[0]?.message).toBe(result.error);
  });
});

describe('schema typing', () => {
  test('the handler input is inferred from each library', () => {
    defineTool({
      name: 'typed',
      description: 'Typed',
      input: inputs.valibot,
      run(input) {
        expectTypeOf(input).toEqualTypeOf<{ city: string; days?: number | undefined }>();
        return {};
      },
    });
    defineTool({
      name: 'typed',
      description: 'Typed',
      input: inputs.arktype,
      run(input) {
        expectTypeOf(input.city).toEqualTypeOf<string>();
        return {};
      },
    });
    defineTool({
      name: 'typed',
      description: 'Typed',
      input: inputs.jsonSchema,
      run(input) {
        expectTypeOf(input).toEqualTypeOf<{ city: string; days?: number }>();
        return {};
      },
    });
  });
});

describe('jsonSchema()', () => {
  const schema = jsonSchema<{ city: string; unit: 'C' | 'F'; tags?: string[] }>({
    type: 'object',
    properties: {
      city: { type: 'string' },
      unit: { enum: ['C', 'F'] },
      tags: { type: 'array', items: { type: 'string' } },
    },
    required: ['city', 'unit'],
  });

  test('checks type, required, enum and items, with a path per issue', async () => {
    const result = await schema['~standard'].validate({ city: 1, tags: ['a', 2] });
    expect(result.issues).toEqual([
      { message: 'Missing required property "unit"', path: ['unit'] },
      { message: 'Expected string, received number', path: ['city'] },
      { message: 'Expected string, received number', path: ['tags', 1] },
    ]);
    expect(await schema['~standard'].validate({ city: 'Oslo', unit: 'K' })).toMatchObject({
      issues: [{ message: 'Expected one of "C", "F"', path: ['unit'] }],
    });
    expect(await schema['~standard'].validate({ city: 'Oslo', unit: 'C' })).toEqual({
      value: { city: 'Oslo', unit: 'C' },
    });
  });

  test('sends the schema to the model as written (a copy the caller cannot change later)', () => {
    const tool = defineTool({ name: 'w', description: 'W', input: schema, run: () => ({}) });
    expect(tool.definition.requestArgs).toEqual(schema['~standard'].jsonSchema.input({ target: 'draft-07' }));
    expect(tool.definition.requestArgs.required).toEqual(['city', 'unit']);
  });
});

describe('defineTool rules', () => {
  test('a schema that cannot describe itself as JSON Schema is refused at define time, naming the fix', () => {
    const validateOnly = {
      '~standard': { version: 1, vendor: 'x', validate: (value: unknown) => ({ value }) },
    };
    expect(() =>
      defineTool({
        name: 'bad',
        description: 'Bad',
        input: validateOnly as unknown as ToolSchema<unknown, ToolObject>,
        run: () => ({}),
      }),
    ).toThrow(/input schema must implement Standard Schema and Standard JSON Schema/);
  });

  test('tool names follow the protocol’s pattern', () => {
    for (const name of ['ok', 'get-weather_2', 'a'.repeat(64), 'a'.repeat(65), 'has space', '', 'é']) {
      const define = () => defineTool({ name, description: 'D', input: inputs.zod, run: () => ({}) });
      if (TOOL_NAME_PATTERN.test(name)) expect(define).not.toThrow();
      else expect(define).toThrow(/invalid tool definition[\s\S]*at name/);
    }
  });
});
