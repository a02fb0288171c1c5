import { JSONParser, type JsonTypes } from '@streamparser/json';
import type { ToolInputParser } from './tool-input-delta.js';

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
 * A container the parser is still filling, as this parser follows it: the parser's own array, or
 * its own object with its keys in the order they arrived (the parser only ever adds members to an
 * open container, and never touches a closed one again).
 */
type OpenContainer = OpenArray | OpenObject;

interface OpenArray {
  kind: 'array';
  value: JsonTypes.JsonArray;
  /** Its key in the container above it (`undefined` for the root). */
  key: Key | undefined;
  /** Members so far. */
  size: number;
}

interface OpenObject {
  kind: 'object';
  value: JsonTypes.JsonObject;
  /** Its key in the container above it (`undefined` for the root). */
  key: Key | undefined;
  /** Members so far. */
  size: number;
  /** Its keys as they arrived. */
  keys: Key[];
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
  key: Key;
  value: unknown;
}

/** Where the value stood after one fragment: enough to build its snapshot later. */
interface Mark {
  /** The open containers, root first; a new array whenever one opens or closes, never changed. */
  path: readonly Frame[];
  /** The innermost open container's size. */
  size: number;
  /** The string being read, and its key in the innermost open container. */
  pending: Member | undefined;
  /** The root once it is complete (or a root that is not a container). */
  done: { value: unknown } | undefined;
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
  if (last) set(members, last.key, last.value);
  return members;
}

/**
 * The value as it stood at `mark`: the open containers along the path are copied (their members
 * as they were then), everything inside them that was complete by then is shared: the parser does
 * not change a closed container. So a snapshot costs the size of the containers still open, never
 * the whole value. The innermost open container gets the string being read; each container above
 * it gets its open child's copy in place of the child itself (its last member, counted when it
 * opened).
 */
function build(mark: Mark): unknown {
  if (mark.done) return mark.done.value;
  const { path } = mark;
  let member = mark.pending;
  let snapshot: unknown = {};
  for (let depth = path.length - 1; depth >= 0; depth--) {
    const { open, size } = path[depth] as Frame;
    snapshot = copy(open, depth === path.length - 1 ? mark.size : size - 1, member);
    member = open.key === undefined ? undefined : { key: open.key, value: snapshot };
  }
  return snapshot;
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
      if (stack.length > path.length && parent !== undefined) {
        // A container opened: the parser attached it to the open container above, under the
        // key of the parser's newest stack frame (every frame below the root has one).
        const above = path.at(-1)?.open;
        const at = stack.at(-1)?.key;
        const open: OpenContainer = Array.isArray(parent)
          ? { kind: 'array', value: parent, key: at, size: 0 }
          : { kind: 'object', value: parent, key: at, size: 0, keys: [] };
        if (above) {
          if (above.kind === 'object' && at !== undefined) above.keys.push(at);
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
        if (open.kind === 'object') open.keys.push(key);
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
