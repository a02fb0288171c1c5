import type { ContextLike } from './tracer-like.js';

// The empty context, which a traced call's span takes as its parent when no context is active. It
// is read as each traced call starts; the SDK's own context manager, used only by the tracing code
// that enters a context, is in own-context-manager.ts.

/** A context of the SDK's own, for when no context manager is registered (the API's `ROOT_CONTEXT` is one too). */
export class MapContext implements ContextLike {
  readonly #entries: ReadonlyMap<symbol, unknown>;

  constructor(entries: ReadonlyMap<symbol, unknown>) {
    this.#entries = entries;
  }

  /** The entries of `context`, if the SDK made it. */
  static entriesOf(context: ContextLike): ReadonlyMap<symbol, unknown> | undefined {
    return context instanceof MapContext ? context.#entries : undefined;
  }

  getValue(key: symbol): unknown {
    return this.#entries.get(key);
  }

  setValue(key: symbol, value: unknown): ContextLike {
    return new MapContext(new Map(this.#entries).set(key, value));
  }

  deleteValue(key: symbol): ContextLike {
    const copy = new Map(this.#entries);
    copy.delete(key);
    return new MapContext(copy);
  }
}

export const ROOT_CONTEXT: ContextLike = new MapContext(new Map());
