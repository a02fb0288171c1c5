import { warnUnknownOptions } from '../../internal/unknown-options.js';
import type { ToolDefinition } from '../../wire/index.js';
import type { ToolContext, ToolMiddleware } from './tool-context.js';
import { controlProblems } from './tool-controls.js';
import {
  isToolSchema,
  JSON_SCHEMA_TARGET,
  type ObjectSchema,
  type SchemaInput,
  type SchemaOutput,
  type ToolObject,
  type ToolSchema,
} from './tool-schema.js';

export type { ToolContext, ToolMiddleware, ToolMiddlewareCall } from './tool-context.js';

/** The call a `needsApproval` predicate is asked about. */
export interface ToolApprovalCall {
  sessionId: string;
  /** The `tool_use` id, which is the `:requestId` of the tool endpoints. */
  requestId: string;
  /** The tool's name as the model called it. */
  name: string;
  /** The input exactly as the model sent it, before the input schema parsed it. */
  rawInput: ToolObject;
}

/**
 * Whether a call of the tool waits for a person's approval (`runToolLoop({ approve })`) before
 * its handler runs: always (`true`), or when the predicate says so for this input.
 */
export type NeedsApproval<TInput = unknown> =
  | boolean
  | ((input: TInput, call: ToolApprovalCall) => boolean | Promise<boolean>);

/** What a handler may return: the output schema's input type, or any object without one. */
export type ToolOutputOf<TOutput extends ObjectSchema | undefined> = TOutput extends ObjectSchema
  ? SchemaInput<TOutput>
  : ToolObject;

/** A tool the SDK can advertise to the model (`definition`) and run (`run`). Build one with {@link defineTool}. */
export interface Tool<
  TInput extends ObjectSchema = ObjectSchema,
  TOutput extends ObjectSchema | undefined = undefined,
> {
  readonly name: string;
  readonly description: string;
  /** The wire form: goes into `customizations.extensions.tools[name]` (see {@link toolsToExtensions}). */
  readonly definition: ToolDefinition;
  /** Checks (and parses) the model's input before `run` sees it. */
  readonly input: TInput;
  /** Checks what `run` returns before it is submitted, when given. */
  readonly output: TOutput;
  /** Whether a call waits for `approve` before `run` (see {@link DefineToolOptions.needsApproval}). */
  readonly needsApproval?: NeedsApproval<SchemaOutput<TInput>> | undefined;
  /** A completed call of this tool ends a `runToolLoop` (see {@link DefineToolOptions.endsLoop}). */
  readonly endsLoop?: boolean | undefined;
  /** The handler's time limit in ms (see {@link DefineToolOptions.timeoutMs}). */
  readonly timeoutMs?: number | undefined;
  /** Runs around each call of this tool (see {@link DefineToolOptions.middleware}). */
  readonly middleware?: readonly ToolMiddleware<SchemaOutput<TInput>, ToolOutputOf<TOutput>>[] | undefined;
  /** Runs alone in its step (see {@link DefineToolOptions.exclusive}). */
  readonly exclusive?: boolean | undefined;
  run(input: SchemaOutput<TInput>, ctx: ToolContext): ToolOutputOf<TOutput> | Promise<ToolOutputOf<TOutput>>;
}

/** Any tool, whatever its schemas: what `runTool` and `runToolLoop` accept. */
// biome-ignore lint/suspicious/noExplicitAny: a list of tools mixes input and output types.
export type AnyTool = Tool<any, any>;

export interface DefineToolOptions<TInput extends ObjectSchema, TOutput extends ObjectSchema | undefined> {
  /** 1 to 64 letters, digits, `_` or `-`. */
  name: string;
  /** What the tool does; the model reads it to decide when to call the tool (1 to 4096 characters). */
  description: string;
  /**
   * The schema of an object (zod, Valibot, ArkType, ... or `jsonSchema<T>()`): turned into
   * `requestArgs` (descriptions included) and used to check the model's input.
   */
  input: TInput;
  /** The schema of an object: turned into `responseShape` and used to check the handler's output. */
  output?: TOutput;
  /**
   * Ask before running: `true` for every call, or a predicate of the parsed input and the call
   * (`(input, call) => boolean | Promise<boolean>`). `runToolLoop` then awaits its `approve`
   * callback while the call's heartbeat keeps the lease; a denial goes to the model as an ERROR
   * with the reason. A loop with such a tool and no `approve` fails at its start.
   */
  needsApproval?: NeedsApproval<SchemaOutput<TInput>> | undefined;
  /**
   * A `runToolLoop` stops once a call of this tool completed (`status: 'stopped'`), after the
   * step's other calls are settled: for a tool like `submit_answer` whose call is the result.
   */
  endsLoop?: boolean | undefined;
  /**
   * The handler's time limit in ms, counted from when it starts (after any approval): at the limit
   * its `ctx.signal` aborts with a `ToolTimeoutError` and the model gets an ERROR
   * (`Tool "x" ran past its 800 ms time limit and was stopped`). Default: `runToolLoop`'s
   * `toolTimeoutMs`, else none.
   */
  timeoutMs?: number | undefined;
  /**
   * Functions `(call, next) => output` around each run of this tool, typed by its schemas, inside
   * the loop's own `middleware` (the first is the outermost). Approval and the time limit run
   * inside them, when `next()` is called. See `ToolMiddleware`.
   */
  middleware?: readonly ToolMiddleware<SchemaOutput<TInput>, ToolOutputOf<TOutput>>[] | undefined;
  /**
   * In a `runToolLoop` step, calls of this tool run after the step's other calls have settled, one
   * at a time and with nothing beside them, whatever `concurrency` says: for a tool that must not
   * overlap others (a deploy, a migration, a write to the same file).
   */
  exclusive?: boolean | undefined;
  run(input: SchemaOutput<TInput>, ctx: ToolContext): ToolOutputOf<TOutput> | Promise<ToolOutputOf<TOutput>>;
}

/** The protocol reserves `state` in a tool response (`{ state: "COMPLETE", ...output }`). */
export const RESERVED_OUTPUT_FIELD = 'state';
/** Tool names: 1 to 64 letters, digits, `_` or `-` (the protocol's `TOOL_NAME_PATTERN`). */
const TOOL_NAME_PATTERN = /^[a-zA-Z0-9_-]{1,64}$/;
const MAX_DESCRIPTION_LENGTH = 4096;

/**
 * Defines a client tool from schemas of any library that implements Standard Schema and Standard
 * JSON Schema (zod >= 4.2, ArkType, Valibot with `toStandardJsonSchema`), or from a plain JSON Schema
 * wrapped in `jsonSchema<T>()`. The JSON Schemas of `definition` come from the library itself
 * (descriptions included); the input schema must describe an object (`"type": "object"`), which is
 * checked here, at definition time, together with the other protocol rules for a tool definition.
 *
 * @example
 * const getWeather = defineTool({
 *   name: 'get_weather',
 *   description: 'Current weather for a city',
 *   input: z.object({ city: z.string().describe('City name') }),
 *   output: z.object({ tempC: z.number() }),
 *   async run({ city }, { signal }) {
 *     return { tempC: city === 'Paris' ? 18 : 21 };
 *   },
 * });
 */
export function defineTool<TInput extends ObjectSchema, TOutput extends ObjectSchema | undefined = undefined>(
  options: DefineToolOptions<TInput, TOutput>,
): Tool<TInput, TOutput> {
  warnUnknownOptions(options, 'defineTool()');
  const { name, description, input, run, needsApproval, endsLoop, timeoutMs, middleware, exclusive } =
    options;
  const output = options.output as TOutput;
  const problems: string[] = [];
  if (typeof name !== 'string' || !TOOL_NAME_PATTERN.test(name)) {
    problems.push('✖ tool names are 1 to 64 characters of letters, digits, "_" or "-"\n  → at name');
  }
  if (
    typeof description !== 'string' ||
    description.length < 1 ||
    description.length > MAX_DESCRIPTION_LENGTH
  ) {
    problems.push(`✖ the description must be 1 to ${MAX_DESCRIPTION_LENGTH} characters\n  → at description`);
  }
  if (typeof run !== 'function') problems.push('✖ run must be a function (input, ctx) => output\n  → at run');
  problems.push(...controlProblems(needsApproval, endsLoop, timeoutMs, middleware, exclusive));
  if (problems.length > 0) {
    throw new TypeError(`defineTool("${name}"): invalid tool definition:\n${problems.join('\n')}`);
  }
  const requestArgs = objectJsonSchema(name, 'input', input);
  const definition: ToolDefinition = { name, description, requestArgs };
  if (output !== undefined) {
    const responseShape = objectJsonSchema(name, 'output', output);
    const properties = responseShape.properties;
    if (typeof properties === 'object' && properties !== null && RESERVED_OUTPUT_FIELD in properties) {
      throw new TypeError(
        `defineTool("${name}"): the output schema must not have a "${RESERVED_OUTPUT_FIELD}" field; ` +
          'the protocol reserves it for the response state',
      );
    }
    definition.responseShape = responseShape;
  }
  return {
    name,
    description,
    definition,
    input,
    output,
    run,
    needsApproval,
    endsLoop,
    timeoutMs,
    middleware,
    exclusive,
  };
}

/**
 * The `customizations.extensions.tools` map for a list of tools, keyed by name. Throws on a
 * duplicate name.
 *
 * @example
 * await client.sessions.create({
 *   customizations: { agentId: 'assistant', extensions: { tools: toolsToExtensions([getWeather]) } },
 * });
 */
export function toolsToExtensions(tools: readonly AnyTool[]): Record<string, ToolDefinition> {
  const map: Record<string, ToolDefinition> = {};
  for (const tool of tools) {
    if (Object.hasOwn(map, tool.name))
      throw new TypeError(`toolsToExtensions: duplicate tool name "${tool.name}"`);
    map[tool.name] = tool.definition;
  }
  return map;
}

function objectJsonSchema(
  toolName: string,
  which: 'input' | 'output',
  schema: ToolSchema,
): { type: 'object'; [key: string]: unknown } {
  if (!isToolSchema(schema)) {
    throw new TypeError(
      `defineTool("${toolName}"): the ${which} schema must implement Standard Schema and Standard JSON ` +
        'Schema (zod >= 4.2, ArkType, Valibot with toStandardJsonSchema), or be wrapped in jsonSchema()',
    );
  }
  let generated: Record<string, unknown>;
  try {
    // The model writes the input, so its schema is the input side (before transforms and
    // defaults); the output is described as the handler's checked result.
    generated = { ...schema['~standard'].jsonSchema[which]({ target: JSON_SCHEMA_TARGET }) };
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new TypeError(
      `defineTool("${toolName}"): the ${which} schema cannot be expressed as JSON Schema: ${reason}`,
      { cause: error },
    );
  }
  delete generated.$schema;
  if (generated.type !== 'object') {
    const got =
      generated.type === undefined
        ? 'no "type" (a union or an unconstrained value)'
        : `"type": ${JSON.stringify(generated.type)}`;
    throw new TypeError(
      `defineTool("${toolName}"): the ${which} schema must describe an object ("type": "object"), got ${got}. ` +
        'Wrap the value in an object schema.',
    );
  }
  return generated as { type: 'object'; [key: string]: unknown };
}
