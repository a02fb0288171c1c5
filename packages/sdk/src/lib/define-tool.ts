import { type ToolDefinition, ToolDefinitionSchema } from '@parley/protocol';
import { z } from 'zod';

/** Tool input and output are always JSON objects on the wire. */
export type ToolObject = Record<string, unknown>;

/** A zod schema whose parsed value is an object: the only kind a tool's input or output may have. */
export type ObjectSchema = z.ZodType<ToolObject>;

/** What a tool handler gets besides its parsed input. */
export interface ToolContext {
  /**
   * Aborted when the work is no longer wanted: the call was lost (its `reason` is then a
   * `ToolCallLostError` with `ABANDONED`, `NOT_FOUND` or `TIMED_OUT`) or the caller aborted the run.
   * Pass it to `fetch` and check it in long loops.
   */
  signal: AbortSignal;
  sessionId: string;
  /** The `tool_use` id, which is the `:requestId` of the tool endpoints. */
  requestId: string;
  /** The tool's name as the model called it. */
  name: string;
  /** The input exactly as the model sent it, before the input schema parsed it. */
  rawInput: ToolObject;
}

/** What a handler may return: the output schema's input type, or any object without one. */
export type ToolOutputOf<TOutput extends ObjectSchema | undefined> = TOutput extends ObjectSchema
  ? z.input<TOutput>
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
  /** Parses the model's input before `run` sees it. */
  readonly input: TInput;
  /** Checks what `run` returns before it is submitted, when given. */
  readonly output: TOutput;
  run(input: z.output<TInput>, ctx: ToolContext): ToolOutputOf<TOutput> | Promise<ToolOutputOf<TOutput>>;
}

/** Any tool, whatever its schemas: what `runTool` and `runToolLoop` accept. */
// biome-ignore lint/suspicious/noExplicitAny: a list of tools mixes input and output types.
export type AnyTool = Tool<any, any>;

export interface DefineToolOptions<TInput extends ObjectSchema, TOutput extends ObjectSchema | undefined> {
  /** 1 to 64 letters, digits, `_` or `-`. */
  name: string;
  /** What the tool does; the model reads it to decide when to call the tool. */
  description: string;
  /** A zod schema of an object: turned into `requestArgs` and used to parse the model's input. */
  input: TInput;
  /** A zod schema of an object: turned into `responseShape` and used to check the handler's output. */
  output?: TOutput;
  run(input: z.output<TInput>, ctx: ToolContext): ToolOutputOf<TOutput> | Promise<ToolOutputOf<TOutput>>;
}

/** The protocol reserves `state` in a tool response (`{ state: "COMPLETE", ...output }`). */
export const RESERVED_OUTPUT_FIELD = 'state';

/**
 * Defines a client tool from zod schemas. The JSON Schemas of `definition` are generated with
 * `z.toJSONSchema`; the input schema must describe an object (`"type": "object"`), which is checked
 * here, at definition time, together with the other protocol rules for a tool definition.
 *
 * @example
 * const getWeather = defineTool({
 *   name: 'get_weather',
 *   description: 'Current weather for a city',
 *   input: z.object({ city: z.string() }),
 *   output: z.object({ tempC: z.number() }),
 *   async run({ city }, { signal }) {
 *     return { tempC: city === 'Paris' ? 18 : 21 };
 *   },
 * });
 */
export function defineTool<TInput extends ObjectSchema, TOutput extends ObjectSchema | undefined = undefined>(
  options: DefineToolOptions<TInput, TOutput>,
): Tool<TInput, TOutput> {
  const { name, description, input, run } = options;
  const output = options.output as TOutput;
  const requestArgs = objectJsonSchema(name, 'input', input, 'input');
  const definition: ToolDefinition = { name, description, requestArgs };
  if (output !== undefined) {
    const responseShape = objectJsonSchema(name, 'output', output, 'output');
    const properties = responseShape.properties;
    if (typeof properties === 'object' && properties !== null && RESERVED_OUTPUT_FIELD in properties) {
      throw new TypeError(
        `defineTool("${name}"): the output schema must not have a "${RESERVED_OUTPUT_FIELD}" field; ` +
          'the protocol reserves it for the response state',
      );
    }
    definition.responseShape = responseShape;
  }
  const checked = ToolDefinitionSchema.safeParse(definition);
  if (!checked.success) {
    throw new TypeError(`defineTool("${name}"): invalid tool definition:\n${z.prettifyError(checked.error)}`);
  }
  return { name, description, definition, input, output, run };
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
  schema: z.ZodType,
  io: 'input' | 'output',
): { type: 'object'; [key: string]: unknown } {
  let generated: Record<string, unknown>;
  try {
    // The model writes the input, so its schema is the input side of the zod schema (before
    // transforms and defaults); the output is described as the handler's parsed result.
    generated = { ...z.toJSONSchema(schema, { io }) };
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new TypeError(
      `defineTool("${toolName}"): the ${which} schema cannot be expressed as JSON Schema: ${reason}`,
      {
        cause: error,
      },
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
        'Wrap the value in z.object({ ... }).',
    );
  }
  return generated as { type: 'object'; [key: string]: unknown };
}
