import type { SchemaIssue, ToolObject, ToolSchema } from './tool-schema.js';

/** A JSON Schema, as a plain object. */
export type JsonSchema = { [keyword: string]: unknown };

/**
 * Wraps a plain JSON Schema so it can serve as a tool's `input` (or `output`), with `T` as the
 * type the handler sees. The schema is sent to the model as written. Values are checked against
 * its `type`, `required`, `properties`, `items` and `enum` keywords (other keywords are not
 * enforced here: use a schema library when you need them).
 *
 * @example
 * const getWeather = defineTool({
 *   name: 'get_weather',
 *   description: 'Current weather for a city',
 *   input: jsonSchema<{ city: string }>({
 *     type: 'object',
 *     properties: { city: { type: 'string', description: 'City name' } },
 *     required: ['city'],
 *   }),
 *   run: ({ city }) => ({ tempC: city === 'Paris' ? 18 : 21 }),
 * });
 */
export function jsonSchema<T extends ToolObject = ToolObject>(schema: JsonSchema): ToolSchema<T, T> {
  const copy = (): Record<string, unknown> => structuredClone(schema);
  return {
    '~standard': {
      version: 1,
      vendor: 'parley-json-schema',
      validate: (value) => {
        const issues: SchemaIssue[] = [];
        checkValue(schema, value, [], issues);
        return issues.length > 0 ? { issues } : { value: value as T };
      },
      jsonSchema: { input: copy, output: copy },
    },
  };
}

const TYPE_CHECKS: Record<string, (value: unknown) => boolean> = {
  object: (v) => typeof v === 'object' && v !== null && !Array.isArray(v),
  array: Array.isArray,
  string: (v) => typeof v === 'string',
  number: (v) => typeof v === 'number' && Number.isFinite(v),
  integer: Number.isInteger,
  boolean: (v) => typeof v === 'boolean',
  null: (v) => v === null,
};

function checkValue(schema: JsonSchema, value: unknown, path: PropertyKey[], issues: SchemaIssue[]): void {
  const types = typeof schema.type === 'string' ? [schema.type] : schema.type;
  if (Array.isArray(types) && !types.some((type) => TYPE_CHECKS[String(type)]?.(value) ?? true)) {
    const got = value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value;
    issues.push({ message: `Expected ${types.join(' or ')}, received ${got}`, path: [...path] });
    return;
  }
  if (Array.isArray(schema.enum) && !schema.enum.some((allowed) => sameJson(allowed, value))) {
    const allowed = schema.enum.map((a) => JSON.stringify(a)).join(', ');
    issues.push({ message: `Expected one of ${allowed}`, path: [...path] });
    return;
  }
  if (TYPE_CHECKS.object?.(value)) {
    const object = value as Record<string, unknown>;
    for (const key of Array.isArray(schema.required) ? schema.required : []) {
      if (!Object.hasOwn(object, String(key))) {
        issues.push({ message: `Missing required property "${String(key)}"`, path: [...path, String(key)] });
      }
    }
    const properties = schema.properties as Record<string, JsonSchema> | undefined;
    for (const [key, child] of Object.entries(properties ?? {})) {
      if (Object.hasOwn(object, key) && typeof child === 'object' && child !== null) {
        checkValue(child, object[key], [...path, key], issues);
      }
    }
  } else if (Array.isArray(value) && typeof schema.items === 'object' && schema.items !== null) {
    for (const [index, item] of value.entries()) {
      checkValue(schema.items as JsonSchema, item, [...path, index], issues);
    }
  }
}

function sameJson(a: unknown, b: unknown): boolean {
  return a === b || JSON.stringify(a) === JSON.stringify(b);
}
