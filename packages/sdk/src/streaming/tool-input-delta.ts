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
   * The input parsed so far, live: one object per tool call, updated in place as fragments
   * arrive (members are added, the string being read grows, numbers, booleans and `null` appear
   * once complete). Reading it costs nothing however often; read in the listener, it is the input
   * as of this delta; read later (a `for await` loop that lags, a kept delta), it is the input as
   * parsed by then. Treat it as read-only. For a value that stays as it is, use `snapshot()`.
   */
  readonly partial: DeepPartial<Input>;
  /**
   * The input as it stood at this delta, as a new object: built on the first call (later calls
   * return the same one), whenever that is. What was complete by then is shared with `partial`
   * and earlier snapshots (read-only); the objects and arrays still open are copied, so a
   * snapshot costs their size (an array being filled: its items so far). Take one when you keep
   * a value (a UI state, once a frame), not on every delta of a long input.
   */
  snapshot(): DeepPartial<Input>;
}

/** The deltas a stream with these tools delivers: narrow on `name` to get the tool's input type. */
export type ToolInputDeltaOf<M extends ToolInputMap> = {
  [N in keyof M & string]: ToolInputDelta<N, M[N]>;
}[keyof M & string];

/** One fragment of a tool call's input parsed: the input live, and a snapshot as of this fragment. */
export interface ParsedFragment {
  /** The input parsed so far: one value for the whole call, updated in place by later fragments. */
  readonly live: unknown;
  /** The input as parsed up to this fragment: a new value on the first call, then the same one. */
  snapshot(): unknown;
}

/** Takes one fragment of a tool call's input and returns the input parsed up to it. */
export type ToolInputParser = (fragment: string) => ParsedFragment;

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
