import type { StandardJSONSchemaV1, StandardSchemaV1 } from '@standard-schema/spec';

/** Tool input and output are always JSON objects on the wire. */
export type ToolObject = Record<string, unknown>;

/**
 * A schema the SDK can both describe as JSON Schema and check values with: anything that
 * implements Standard Schema and Standard JSON Schema (zod >= 4.2, ArkType >= 2.1.20, Valibot
 * through `toStandardJsonSchema` of `@valibot/to-json-schema`), or a plain JSON Schema wrapped in
 * {@link jsonSchema}.
 */
export interface ToolSchema<Input = unknown, Output = Input> {
  readonly '~standard': StandardSchemaV1.Props<Input, Output> & StandardJSONSchemaV1.Props<Input, Output>;
}

/** A schema whose values are objects: the only kind a tool's input or output may have. */
export type ObjectSchema = ToolSchema<unknown, ToolObject>;

/** The value a schema accepts (before transforms and defaults). */
export type SchemaInput<S extends ToolSchema> = StandardSchemaV1.InferInput<S>;
/** The value a schema produces (after transforms and defaults). */
export type SchemaOutput<S extends ToolSchema> = StandardSchemaV1.InferOutput<S>;

/** One issue of a schema library, as Standard Schema reports it. */
export type SchemaIssue = StandardSchemaV1.Issue;

/** The JSON Schema draft the SDK asks schema libraries for. */
export const JSON_SCHEMA_TARGET = 'draft-2020-12';

/** True when `value` implements both Standard Schema and Standard JSON Schema. */
export function isToolSchema(value: unknown): value is ToolSchema {
  const props = (value as { '~standard'?: Record<string, unknown> } | null)?.['~standard'];
  const jsonSchema = props?.jsonSchema as Record<string, unknown> | undefined;
  return (
    typeof props === 'object' &&
    typeof props.validate === 'function' &&
    typeof jsonSchema?.input === 'function' &&
    typeof jsonSchema.output === 'function'
  );
}

/** Checks `value` with the schema's own library. */
export async function validateWith<S extends ToolSchema>(
  schema: S,
  value: unknown,
): Promise<{ value: SchemaOutput<S> } | { issues: readonly SchemaIssue[] }> {
  const result = await schema['~standard'].validate(value);
  // Valibot reports a partial `value` beside its issues: the issues decide.
  if (result.issues) return { issues: result.issues };
  return { value: result.value as SchemaOutput<S> };
}

/**
 * The library's own issue texts, one per line, each with where it applies:
 * `✖ Invalid input: expected string, received number\n  → at city`.
 */
export function formatIssues(issues: readonly SchemaIssue[]): string {
  return issues
    .map((issue) => {
      const path = (issue.path ?? []).map((segment) =>
        String(typeof segment === 'object' && segment !== null ? segment.key : segment),
      );
      return path.length > 0 ? `✖ ${issue.message}\n  → at ${path.join('.')}` : `✖ ${issue.message}`;
    })
    .join('\n');
}
