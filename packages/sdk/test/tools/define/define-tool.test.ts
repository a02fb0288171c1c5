import { ToolDefinitionSchema } from '@parley/protocol';
import { defineTool, type ToolContext, toolsToExtensions } from '@parley/sdk';
import { describe, expect, expectTypeOf, test } from 'vitest';
import { z } from 'zod';

const getWeather = defineTool({
  name: 'get_weather',
  description: 'Current weather for a city',
  input: z.object({ city: z.string().describe('City name'), unit: z.enum(['C', 'F']).default('C') }),
  output: z.object({ temperature: z.number() }),
  run: ({ city, unit }) => ({ temperature: city.length + (unit === 'C' ? 0 : 32) }),
});

describe('defineTool', () => {
  test('generates requestArgs and responseShape as JSON Schema objects from zod', () => {
    expect(getWeather.definition).toEqual({
      name: 'get_weather',
      description: 'Current weather for a city',
      requestArgs: {
        type: 'object',
        properties: {
          city: { type: 'string', description: 'City name' },
          unit: { type: 'string', enum: ['C', 'F'], default: 'C' },
        },
        required: ['city'],
      },
      responseShape: {
        type: 'object',
        properties: { temperature: { type: 'number' } },
        required: ['temperature'],
        additionalProperties: false,
      },
    });
    expect(ToolDefinitionSchema.safeParse(getWeather.definition).success).toBe(true);
  });

  test('leaves responseShape out without an output schema', () => {
    const ping = defineTool({
      name: 'ping',
      description: 'Ping',
      input: z.object({}),
      run: () => ({ pong: true }),
    });
    expect(ping.definition).not.toHaveProperty('responseShape');
    expect(ping.definition.requestArgs.type).toBe('object');
  });

  test('the definition is plain JSON (no $schema, no hidden zod members)', () => {
    expect(getWeather.definition.requestArgs).not.toHaveProperty('$schema');
    expect(JSON.parse(JSON.stringify(getWeather.definition))).toEqual(getWeather.definition);
  });

  test('rejects an input schema that is not an object, at define time', () => {
    const define = (input: z.ZodType) =>
      defineTool({
        name: 'bad',
        description: 'Bad',
        input: input as z.ZodType<Record<string, unknown>>,
        run: () => ({}),
      });
    expect(() => define(z.string())).toThrow(
      /input schema must describe an object \("type": "object"\), got "type": "string"/,
    );
    expect(() => define(z.union([z.object({ a: z.string() }), z.object({ b: z.string() })]))).toThrow(
      /input schema must describe an object/,
    );
    expect(() => define(z.object({ when: z.date() }))).toThrow(
      /input schema cannot be expressed as JSON Schema/,
    );
  });

  test('rejects an output schema that is not an object or uses the reserved "state" field', () => {
    expect(() =>
      defineTool({
        name: 'bad',
        description: 'Bad',
        input: z.object({}),
        output: z.array(z.string()) as unknown as z.ZodType<Record<string, unknown>>,
        run: () => ({}),
      }),
    ).toThrow(/output schema must describe an object/);
    expect(() =>
      defineTool({
        name: 'bad',
        description: 'Bad',
        input: z.object({}),
        output: z.object({ state: z.string() }),
        run: () => ({ state: 'x' }),
      }),
    ).toThrow(/must not have a "state" field/);
  });

  test('rejects names and descriptions the protocol does not accept', () => {
    expect(() =>
      defineTool({ name: 'get weather', description: 'x', input: z.object({}), run: () => ({}) }),
    ).toThrow(/defineTool\("get weather"\): invalid tool definition/);
    expect(() => defineTool({ name: 'ok', description: '', input: z.object({}), run: () => ({}) })).toThrow(
      /invalid tool definition[\s\S]*description/,
    );
  });

  test('rejects loop controls of the wrong kind (needsApproval, endsLoop, timeoutMs), naming each', () => {
    const base = {
      name: 'send_email',
      description: 'Sends',
      input: z.object({ to: z.string() }),
      run: () => ({}),
    };
    expect(() =>
      defineTool({ ...base, needsApproval: 'yes' as never, endsLoop: 1 as never, timeoutMs: Number.NaN }),
    ).toThrow(
      'defineTool("send_email"): invalid tool definition:\n' +
        '✖ needsApproval must be a boolean or a function (input, call) => boolean\n  → at needsApproval\n' +
        '✖ endsLoop must be a boolean\n  → at endsLoop\n' +
        '✖ timeoutMs must be a positive number of milliseconds up to 2147483647, got NaN (a number)\n  → at timeoutMs',
    );
    const predicate = defineTool({
      ...base,
      // The predicate gets the parsed input, typed from the schema.
      needsApproval: (input, call) => {
        expectTypeOf(input).toEqualTypeOf<{ to: string }>();
        return !input.to.endsWith('@example.com') && call.name === 'send_email';
      },
      endsLoop: true,
      timeoutMs: 800,
    });
    expect(predicate).toMatchObject({ endsLoop: true, timeoutMs: 800 });
    expect(predicate.definition).toEqual(defineTool(base).definition);
  });

  test('types run with the parsed input and the context', () => {
    defineTool({
      name: 'typed',
      description: 'Typed',
      input: z.object({ n: z.number(), tag: z.string().optional() }),
      output: z.object({ doubled: z.number() }),
      run(input, ctx) {
        expectTypeOf(input).toEqualTypeOf<{ n: number; tag?: string | undefined }>();
        expectTypeOf(ctx).toEqualTypeOf<ToolContext>();
        expectTypeOf(ctx.signal).toEqualTypeOf<AbortSignal>();
        return { doubled: input.n * 2 };
      },
    });
    defineTool({
      name: 'typed',
      description: 'Typed',
      input: z.object({}),
      output: z.object({ doubled: z.number() }),
      // @ts-expect-error the output schema wants `doubled: number`
      run: () => ({ doubled: 'two' }),
    });
  });
});

describe('toolsToExtensions', () => {
  test('maps each tool name to its definition, ready for customizations.extensions.tools', () => {
    const ping = defineTool({ name: 'ping', description: 'Ping', input: z.object({}), run: () => ({}) });
    expect(toolsToExtensions([getWeather, ping])).toEqual({
      get_weather: getWeather.definition,
      ping: ping.definition,
    });
  });

  test('throws on a duplicate name', () => {
    expect(() => toolsToExtensions([getWeather, getWeather])).toThrow(/duplicate tool name "get_weather"/);
  });
});
