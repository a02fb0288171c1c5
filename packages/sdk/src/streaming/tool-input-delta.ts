import type { ToolUseBlock } from '../wire/index.js';

/** Every property optional, at every depth: the input of a tool call as far as it has arrived. */
export type DeepPartial<T> = T extends readonly (infer E)[]
  ? DeepPartial<E>[]
  : T extends object
    ? { [K in keyof T]?: DeepPartial<T[K]> }
    : T;

/** Tool input types by tool name, e.g. `{ get_weather: { city: string } }`. */
export type ToolInputMap = Record<string, unknown>;

/** The map a stream has when no tool is named: any tool, any object input. */
export type AnyToolInputs = Record<string, Record<string, unknown>>;

/**
 * One fragment of a tool call's input as it streams, with the input parsed so far.
 *
 * @example
 * ```ts
 * stream.on('toolInputDelta', ({ name, partial }) => console.log(name, partial));
 * ```
 */
export interface ToolInputDelta<Name extends string = string, Input = Record<string, unknown>> {
  /** The tool call's id (`tooluse_...`), the `requestId` of its pending tool. */
  toolUseId: string;
  /** The tool's name. */
  name: Name;
  /** The JSON text this event added. */
  fragment: string;
  /**
   * The input parsed so far, a new object on every delta: members that arrived, the string being
   * read as far as it goes, numbers, booleans and `null` once complete. Built when first read
   * (then kept): its containers still being filled are new, what was complete before is shared
   * with the earlier deltas' `partial`, so treat it as read-only.
   */
  readonly partial: DeepPartial<Input>;
}

/** The deltas a stream with these tools delivers: narrow on `name` to get the tool's input type. */
export type ToolInputDeltaOf<M extends ToolInputMap> = {
  [N in keyof M & string]: ToolInputDelta<N, M[N]>;
}[keyof M & string];

/**
 * Takes one fragment of a tool call's input and returns a function that builds the input as
 * parsed up to this fragment (on its first call; later calls return the same value).
 */
export type ToolInputParser = (fragment: string) => () => unknown;

/** Turns one fragment of a tool call's input into its delta, or `undefined` for a tool left out. */
export type ToolInputDeltaMaker = (block: ToolUseBlock, fragment: string) => ToolInputDelta | undefined;

/**
 * The partial input parsing of a stream: `partialInput()` from `@parley/sdk/partial-input` (the
 * entry that carries the JSON parser) builds one.
 */
export interface PartialInput<M extends ToolInputMap = AnyToolInputs> {
  /** Called once per stream: its delta maker, which keeps a parser per tool call. */
  deltas(): ToolInputDeltaMaker;
  /** Type only: the input types of the tools, by name. Never set. */
  readonly inputs?: M;
}
