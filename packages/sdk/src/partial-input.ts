// `@parley/sdk/partial-input`: tool input parsed as it streams. An entry of its own so the JSON
// parser it carries (@streamparser/json) reaches only the apps that import it.
import { ParleyError } from './errors/index.js';
import { partialJsonParser } from './streaming/partial-json.js';
import type { AnyToolInputs, PartialInput, ToolInputMap } from './streaming/tool-input-delta.js';
import { deltaMaker } from './streaming/tool-input-deltas.js';
import type { AnyTool } from './tools/define/define-tool.js';
import type { SchemaInput } from './tools/define/tool-schema.js';

export { partialJsonParser } from './streaming/partial-json.js';
export type {
  AnyToolInputs,
  DeepPartial,
  ParsedFragment,
  PartialInput,
  ToolInputDelta,
  ToolInputDeltaMaker,
  ToolInputDeltaOf,
  ToolInputMap,
  ToolInputParser,
} from './streaming/tool-input-delta.js';
export { toolInputDeltas } from './streaming/tool-input-deltas.js';

/** The input types of a record of tools (`defineTool`), by tool name. */
export type ToolInputsOf<T extends Record<string, AnyTool>> = { [N in keyof T]: SchemaInput<T[N]['input']> };

/**
 * Parses the input of tool calls as it streams, for `stream.on('toolInputDelta', ...)` and
 * `toolInputDeltas(stream)`. Pass it as the `partialInput` option of `client.messages.stream`
 * (or of `MessageStream.fromReadableStream`).
 *
 * - `partialInput()`: every tool; `partial` is typed as a partial `Record<string, unknown>`.
 * - `partialInput({ get_weather: getWeather })`: only these tools (keys are the tools' names),
 *   `partial` typed from each tool's input schema once you narrow on `name`.
 * - `partialInput<{ get_weather: { city: string } }>()`: every tool, typed by the given map.
 *
 * @example
 * ```ts
 * import { partialInput } from '@parley/sdk/partial-input';
 *
 * const stream = client.messages.stream(sessionId, { content: 'Weather in Paris?' }, {
 *   partialInput: partialInput({ get_weather: getWeather }),
 * });
 * stream.on('toolInputDelta', ({ partial }) => console.log(partial.city));
 * ```
 */
export function partialInput<M extends ToolInputMap = AnyToolInputs>(): PartialInput<M>;
export function partialInput<T extends Record<string, AnyTool>>(tools: T): PartialInput<ToolInputsOf<T>>;
export function partialInput(tools?: Record<string, AnyTool>): PartialInput<ToolInputMap> {
  if (tools === undefined) return { deltas: () => deltaMaker(partialJsonParser, () => true) };
  const names = new Set<string>();
  for (const [key, tool] of Object.entries(tools)) {
    if (tool.name !== key) {
      throw new ParleyError(
        `partialInput: the tool under "${key}" is named "${tool.name}"; key each tool by its name`,
      );
    }
    names.add(key);
  }
  return { deltas: () => deltaMaker(partialJsonParser, (name) => names.has(name)) };
}
