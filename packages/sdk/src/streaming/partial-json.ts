import { JSONParser } from '@streamparser/json';
import type { ParsedFragment, ToolInputParser } from './tool-input-delta.js';

/** A member's key: an object's property name or an array's index. */
type Key = string | number;

/** Sets a member of an object; defineProperty, not assignment, so a `__proto__` member stays a member. */
function set(object: Record<string, unknown>, key: Key, value: unknown): void {
  if (key === '__proto__') {
    Object.defineProperty(object, key, { value, enumerable: true, writable: true, configurable: true });
  } else {
    object[key] = value;
  }
}

/**
 * A container of the live value that is still being filled: its keys in the order they arrived
 * (an object's; an array's are its indexes) and its members so far. Only an open container is
 * ever written to; once closed, it is never touched again, so snapshots may share it.
 */
type OpenContainer = OpenArray | OpenObject;

interface OpenArray {
  kind: 'array';
  value: unknown[];
  /** Its key in the container above it (`undefined` for the root). */
  key: Key | undefined;
  /** Complete members so far. */
  size: number;
}

interface OpenObject {
  kind: 'object';
  value: Record<string, unknown>;
  /** Its key in the container above it (`undefined` for the root). */
  key: Key | undefined;
  /** Complete members so far. */
  size: number;
  /** Its keys as they arrived. */
  keys: Key[];
}

/** Sets a member of the live value's open container. */
function put(open: OpenContainer, key: Key, value: unknown): void {
  if (open.kind === 'array') open.value[key as number] = value;
  else set(open.value, key, value);
}

/**
 * One open container on the path from the root, with its size as the path was made: a container
 * above the innermost one gets no member while a child is open, so that size stays right.
 */
interface Frame {
  open: OpenContainer;
  size: number;
}

/** A member a snapshot adds after the ones it copies: the string being read, or an open child. */
interface Member {
  /** `undefined` for a root that is a string being read. */
  key: Key | undefined;
  value: unknown;
}

/** A copy of an open container: its first `size` members, then `last` if given. */
function copy(open: OpenContainer, size: number, last: Member | undefined): unknown {
  if (open.kind === 'array') {
    const members: unknown[] = open.value.slice(0, size);
    if (last) members.push(last.value);
    return members;
  }
  const members: Record<string, unknown> = {};
  for (const key of open.keys.slice(0, size)) set(members, key, open.value[key]);
  if (last?.key !== undefined) set(members, last.key, last.value);
  return members;
}

/** The live value, as the parser's callbacks update it and the fragments read it. */
interface Live {
  /** The root: the object the input is read into (the same one from first to last fragment). */
  value: unknown;
}

/**
 * Where the value stood after one fragment: the live value, and enough to build a copy of it as
 * it stood then.
 */
class Mark implements ParsedFragment {
  readonly #live: Live;
  /** The open containers, root first; a new array whenever one opens or closes, never changed. */
  readonly #path: readonly Frame[];
  /** The innermost open container's size. */
  readonly #size: number;
  /** The string being read, and its key in the innermost open container. */
  readonly #pending: Member | undefined;
  /** The root once it is complete (or a root that is not a container). */
  readonly #done: { value: unknown } | undefined;
  #snapshot: { value: unknown } | undefined;

  constructor(
    live: Live,
    path: readonly Frame[],
    pending: Member | undefined,
    done: { value: unknown } | undefined,
  ) {
    this.#live = live;
    this.#path = path;
    this.#size = path.at(-1)?.open.size ?? 0;
    this.#pending = pending;
    this.#done = done;
  }

  get live(): unknown {
    return this.#live.value;
  }

  snapshot(): unknown {
    this.#snapshot ??= { value: this.#build() };
    return this.#snapshot.value;
  }

  /**
   * The value as it stood at this mark: the open containers along the path are copied (their
   * members as they were then), everything inside them that was complete by then is shared: a
   * closed container is never changed. So a snapshot costs the size of the containers still open,
   * never the whole value. The innermost open container gets the string being read; each container
   * above it gets its open child's copy in place of the child itself (its last member, counted
   * when it opened).
   */
  #build(): unknown {
    if (this.#done) return this.#done.value;
    const path = this.#path;
    let member = this.#pending;
    if (path.length === 0) return member ? member.value : {};
    let snapshot: unknown;
    for (let depth = path.length - 1; depth >= 0; depth--) {
      const { open, size } = path[depth] as Frame;
      snapshot = copy(open, depth === path.length - 1 ? this.#size : size - 1, member);
      member = { key: open.key, value: snapshot };
    }
    return snapshot;
  }
}

/**
 * Parses one JSON value fed fragment by fragment with @streamparser/json, into a live value
 * updated in place (as jsonriver does): the root object is the same from the first fragment to
 * the last, members are added to it as they arrive, and a string being read is replaced by its
 * longer self on every fragment. After each fragment it returns that fragment's `ParsedFragment`:
 * `live` (the value, in place: O(1) to read however often) and `snapshot()` (a new value as it
 * stood after that fragment, built on the first call and then kept).
 *
 * The parser reports each value with its parent as it completes, and each container and string
 * as it opens and grows (`emitPartialValues`); the live value is written from those reports, the
 * parser's own value is left as the parser made it. Only the containers still open are followed
 * from fragment to fragment (what each holds and its members' order), so a fragment costs the
 * parser's work plus the depth of the value. Numbers and literals appear only once complete: `1`
 * of `12` would be a wrong value, not a shorter one.
 *
 * JSON that turns out invalid stops the parsing: the live value stays the last good one (the
 * stream fails when the block ends, as without partial input).
 */
export function partialJsonParser(): ToolInputParser {
  const parser = new JSONParser({ emitPartialTokens: true, emitPartialValues: true });
  // The root object exists before its `{` arrives, so the value a first fragment of whitespace
  // shows is the one the input is read into.
  const live: Live = { value: {} };
  let path: readonly Frame[] = [];
  let pending: Member | undefined;
  let done: { value: unknown } | undefined;
  let failed = false;
  // A high surrogate at a fragment's end waits for its pair: alone, it would be encoded as U+FFFD.
  let held = '';
  parser.onValue = ({ value, key, parent, stack, partial }) => {
    pending = undefined;
    if (partial) {
      if (stack.length > path.length && parent !== undefined) {
        // A container opened, under the key of the parser's newest stack frame (every frame below
        // the root has one).
        const above = path.at(-1)?.open;
        const at = stack.at(-1)?.key;
        const open: OpenContainer = Array.isArray(parent)
          ? { kind: 'array', value: [], key: at, size: 0 }
          : {
              kind: 'object',
              value: above ? {} : (live.value as Record<string, unknown>),
              key: at,
              size: 0,
              keys: [],
            };
        if (above && at !== undefined) {
          put(above, at, open.value);
          if (above.kind === 'object') above.keys.push(at);
          above.size++;
          path = [...path.slice(0, -1), { open: above, size: above.size }, { open, size: 0 }];
        } else {
          live.value = open.value;
          path = [{ open, size: 0 }];
        }
      } else if (typeof value === 'string') {
        pending = { key, value };
        const open = path.at(-1)?.open;
        if (open && key !== undefined) put(open, key, value);
        else if (stack.length === 0) live.value = value;
      }
      return;
    }
    if (stack.length < path.length) {
      // A container closed; it was counted in the one above when it opened.
      path = path.slice(0, -1);
      if (stack.length === 0) done = { value: live.value };
      return;
    }
    const open = path.at(-1)?.open;
    if (open && key !== undefined) {
      // A complete member. A key that comes twice is listed twice: a snapshot sets it twice, and
      // shows the later value at its first place, as JSON.parse does.
      put(open, key, value);
      if (open.kind === 'object') open.keys.push(key);
      open.size++;
    } else if (stack.length === 0) {
      // A root that is not a container.
      live.value = value;
      done = { value };
    }
  };
  parser.onError = () => {
    failed = true;
  };
  return (fragment) => {
    let text = held + fragment;
    held = '';
    const last = text.charCodeAt(text.length - 1);
    if (last >= 0xd800 && last <= 0xdbff) {
      held = text.slice(-1);
      text = text.slice(0, -1);
    }
    if (!failed && text !== '' && !parser.isEnded) {
      try {
        parser.write(text);
      } catch {
        failed = true;
      }
    }
    return new Mark(live, path, pending, done);
  };
}
