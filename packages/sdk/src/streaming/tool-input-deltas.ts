import { EventQueue } from './event-queue.js';
import type { MessageStream } from './message-stream.js';
import type {
  ParsedFragment,
  ToolInputDelta,
  ToolInputDeltaMaker,
  ToolInputDeltaOf,
  ToolInputMap,
  ToolInputParser,
} from './tool-input-delta.js';

/**
 * A stream's delta maker: one parser per tool call (by toolUseId), made on its first fragment for
 * the tools `include` accepts.
 */
export function deltaMaker(
  parser: () => ToolInputParser,
  include: (name: string) => boolean,
): ToolInputDeltaMaker {
  const parsers = new Map<string, ToolInputParser | null>();
  return (block, fragment) => {
    let parse = parsers.get(block.id);
    if (parse === undefined) {
      parse = include(block.name) ? parser() : null;
      parsers.set(block.id, parse);
    }
    if (parse === null) return undefined;
    return new ParsedDelta(block.id, block.name, fragment, parse(fragment));
  };
}

/**
 * A delta: `partial` reads the live input, `snapshot()` builds the input as of this delta when
 * first called (a delta nobody snapshots costs no copy). A class, its `partial` a getter on the
 * prototype: an object literal with a getter costs a new accessor on every delta. `toJSON` keeps
 * `partial` in `JSON.stringify`, as of this delta.
 */
class ParsedDelta implements ToolInputDelta {
  readonly toolUseId: string;
  readonly name: string;
  readonly fragment: string;
  readonly #parsed: ParsedFragment;

  constructor(toolUseId: string, name: string, fragment: string, parsed: ParsedFragment) {
    this.toolUseId = toolUseId;
    this.name = name;
    this.fragment = fragment;
    this.#parsed = parsed;
  }

  get partial(): ToolInputDelta['partial'] {
    return this.#parsed.live as ToolInputDelta['partial'];
  }

  snapshot(): ToolInputDelta['partial'] {
    return this.#parsed.snapshot() as ToolInputDelta['partial'];
  }

  toJSON(): Omit<ToolInputDelta, 'snapshot'> {
    return { toolUseId: this.toolUseId, name: this.name, fragment: this.fragment, partial: this.snapshot() };
  }
}

/**
 * The `toolInputDelta` items of a stream as an async iterable, beside the stream's own iterator
 * (which yields the protocol's events only). Leaving this loop early does not stop the stream;
 * the loop ends when the stream does, and throws its error. Needs the `partialInput` option.
 *
 * @example
 * ```ts
 * for await (const { name, partial } of toolInputDeltas(stream)) console.log(name, partial);
 * ```
 */
export function toolInputDeltas<M extends ToolInputMap>(
  stream: MessageStream<M>,
): AsyncIterable<ToolInputDeltaOf<M>> {
  return {
    [Symbol.asyncIterator]: () => {
      const listener = (delta: ToolInputDeltaOf<M>) => queue.push(delta);
      const queue = new EventQueue<ToolInputDeltaOf<M>>(
        () => stream.off('toolInputDelta', listener),
        () => {},
      );
      stream.on('toolInputDelta', listener);
      stream.done().then(
        () => queue.finish(undefined),
        (error: Error) => queue.finish(error),
      );
      return queue;
    },
  };
}
