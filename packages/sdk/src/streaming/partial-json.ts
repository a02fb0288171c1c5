import { JSONParser } from '@streamparser/json';
import type { ToolInputParser } from './tool-input-delta.js';

type Container = Record<string | number, unknown>;

/** Sets a member; defineProperty, not assignment, so a `__proto__` member stays a member. */
function set(container: Container, key: string | number, value: unknown): void {
  Object.defineProperty(container, key, { value, enumerable: true, writable: true, configurable: true });
}

/** A copy of a parsed value: containers copied, strings and numbers shared. */
function copy(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(copy);
  if (typeof value !== 'object' || value === null) return value;
  const out: Container = {};
  for (const key of Object.keys(value)) set(out, key, copy((value as Container)[key]));
  return out;
}

/**
 * Parses one JSON value fed fragment by fragment with @streamparser/json, and returns after each
 * fragment a snapshot of the value so far. The parser builds the value in place (containers are
 * attached to their parent when they open); a string still being read is reported apart, and the
 * snapshot adds it where it stands. Numbers and literals appear only once complete: `1` of `12`
 * would be a wrong value, not a shorter one.
 *
 * JSON that turns out invalid stops the parsing: later snapshots stay the last good one (the
 * stream fails when the block ends, as without partial input).
 */
export function partialJsonParser(): ToolInputParser {
  const parser = new JSONParser({ emitPartialTokens: true, emitPartialValues: true });
  let root: unknown;
  let pending: { path: Array<string | number>; value: string } | undefined;
  let failed = false;
  // A high surrogate at a fragment's end waits for its pair: alone, it would be encoded as U+FFFD.
  let held = '';
  parser.onValue = ({ value, key, parent, stack, partial }) => {
    if (stack.length === 0) {
      root = value;
      pending = undefined;
      return;
    }
    // stack[i].value is the container at depth i - 1 and stack[i].key the key of the next one in it.
    root = stack.length > 1 ? stack[1]?.value : parent;
    pending =
      partial && typeof value === 'string' && key !== undefined
        ? { path: [...stack.slice(1).map((s) => s.key as string | number), key], value }
        : undefined;
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
    const snapshot = copy(root ?? {});
    if (pending && snapshot !== null && typeof snapshot === 'object') {
      let at = snapshot as Container;
      const { path, value } = pending;
      for (let i = 0; i < path.length - 1; i++) at = at[path[i] as string | number] as Container;
      set(at, path[path.length - 1] as string | number, value);
    }
    return snapshot;
  };
}
