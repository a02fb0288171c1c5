import { JSONParser } from '@streamparser/json';
import type { ToolInputParser } from './tool-input-delta.js';

type Container = Record<string | number, unknown>;

/** Sets a member; defineProperty, not assignment, so a `__proto__` member stays a member. */
function set(container: Container, key: string | number, value: unknown): void {
  if (key === '__proto__') {
    Object.defineProperty(container, key, { value, enumerable: true, writable: true, configurable: true });
  } else {
    container[key] = value;
  }
}

/**
 * A container the parser is still filling, as this parser follows it: the parser's own object or
 * array, and for an object its keys in the order they arrived (the parser only ever adds members
 * to an open container, and never touches a closed one again).
 */
interface OpenContainer {
  value: Container;
  /** Its key in the container above it (`undefined` for the root). */
  key: string | number | undefined;
  /** An object's keys as they arrived; `undefined` for an array. */
  keys: Array<string | number> | undefined;
  /** Members so far. */
  size: number;
}

/**
 * One open container on the path from the root, with its size as the path was made: a container
 * above the innermost one gets no member while a child is open, so that size stays right.
 */
interface Frame {
  open: OpenContainer;
  size: number;
}

/** Where the value stood after one fragment: enough to build its snapshot later. */
interface Mark {
  /** The open containers, root first; a new array whenever one opens or closes, never changed. */
  path: readonly Frame[];
  /** The innermost open container's size. */
  size: number;
  /** The string being read, and its key in the innermost open container. */
  pending: { key: string | number; value: string } | undefined;
  /** The root once it is complete (or a root that is not a container). */
  done: { value: unknown } | undefined;
}

/**
 * The value as it stood at `mark`: the open containers along the path are copied (their members
 * as they were then), everything inside them that was complete by then is shared: the parser does
 * not change a closed container. So a snapshot costs the size of the containers still open, never
 * the whole value.
 */
function build(mark: Mark): unknown {
  if (mark.done) return mark.done.value;
  const { path, pending } = mark;
  let child: unknown;
  for (let depth = path.length - 1; depth >= 0; depth--) {
    const { open, size: sizeThen } = path[depth] as Frame;
    const size = depth === path.length - 1 ? mark.size : sizeThen;
    let copy: Container;
    if (open.keys === undefined) {
      copy = (open.value as unknown as unknown[]).slice(0, size) as unknown as Container;
    } else {
      copy = {};
      for (let i = 0; i < size; i++) {
        const key = open.keys[i] as string | number;
        set(copy, key, open.value[key]);
      }
    }
    if (depth === path.length - 1) {
      if (pending) set(copy, pending.key, pending.value);
    } else {
      set(copy, path[depth + 1]?.open.key as string | number, child);
    }
    child = copy;
  }
  return child ?? {};
}

/**
 * Parses one JSON value fed fragment by fragment with @streamparser/json. After each fragment it
 * returns a function that builds the value as it stood then (once; later calls give the same
 * object). Only the containers still open are followed from fragment to fragment (what each holds
 * and its members' order), so a fragment costs the parser's work plus the depth of the value, and
 * a snapshot is built only when asked for.
 *
 * The parser builds the value in place (a container is attached to its parent when it opens); a
 * string still being read is reported apart, and the snapshot adds it where it stands. Numbers
 * and literals appear only once complete: `1` of `12` would be a wrong value, not a shorter one.
 *
 * JSON that turns out invalid stops the parsing: later snapshots stay the last good one (the
 * stream fails when the block ends, as without partial input).
 */
export function partialJsonParser(): ToolInputParser {
  const parser = new JSONParser({ emitPartialTokens: true, emitPartialValues: true });
  let path: readonly Frame[] = [];
  let pending: Mark['pending'];
  let done: Mark['done'];
  let failed = false;
  // A high surrogate at a fragment's end waits for its pair: alone, it would be encoded as U+FFFD.
  let held = '';
  parser.onValue = ({ value, key, parent, stack, partial }) => {
    pending = undefined;
    if (partial) {
      if (stack.length > path.length) {
        // A container opened: the parser attached it to the open container above, under the
        // key of the parser's newest stack frame.
        const above = path.at(-1)?.open;
        const at = stack.at(-1)?.key;
        const container = parent as Container;
        const open = { value: container, key: at, keys: Array.isArray(container) ? undefined : [], size: 0 };
        if (above) {
          above.keys?.push(at as string | number);
          above.size++;
          path = [...path.slice(0, -1), { open: above, size: above.size }, { open, size: 0 }];
        } else {
          path = [{ open, size: 0 }];
        }
      } else if (typeof value === 'string' && key !== undefined) {
        pending = { key, value };
      }
      return;
    }
    if (stack.length < path.length) {
      // A container closed; it was counted in the one above when it opened.
      path = path.slice(0, -1);
    } else {
      const open = path.at(-1)?.open;
      if (open && key !== undefined) {
        // A complete member. A key that comes twice is listed twice: a snapshot sets it twice,
        // and shows the later value at its first place, as the parser's object does.
        open.keys?.push(key);
        open.size++;
      }
    }
    if (stack.length === 0) done = { value };
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
    const mark: Mark = { path, size: path.at(-1)?.open.size ?? 0, pending, done };
    let snapshot: { value: unknown } | undefined;
    return () => {
      snapshot ??= { value: build(mark) };
      return snapshot.value;
    };
  };
}
