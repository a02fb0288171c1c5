/**
 * `__proto__` as a key: `JSON.parse` keeps it as an ordinary own property, but assigning it on a
 * plain object (`out[key] = value`, which zod's records and loose objects do) sets the prototype
 * instead, so the key silently disappears.
 */
export const PROTO_KEY = '__proto__';

/**
 * The path of the first own `__proto__` key of `input` that `output` (what validating or copying
 * `input` produced) no longer has at the same place, or `undefined` when every one was kept. Walks
 * the objects and arrays present in both; where `output` holds the very same value as `input`,
 * nothing below it was copied and nothing is walked. Without recursion, so any depth is safe.
 */
export function findLostProtoKey(input: unknown, output: unknown): Array<string | number> | undefined {
  const work: Array<{ input: unknown; output: unknown; path: Array<string | number> }> = [
    { input, output, path: [] },
  ];
  while (work.length > 0) {
    const item = work.pop() as (typeof work)[number];
    if (item.input === item.output || typeof item.input !== 'object' || item.input === null) continue;
    if (typeof item.output !== 'object' || item.output === null) continue;
    if (Array.isArray(item.input)) {
      if (!Array.isArray(item.output)) continue;
      const length = Math.min(item.input.length, item.output.length);
      for (let i = length - 1; i >= 0; i--) {
        work.push({ input: item.input[i], output: item.output[i], path: [...item.path, i] });
      }
      continue;
    }
    const from = item.input as Record<string, unknown>;
    const to = item.output as Record<string, unknown>;
    if (Object.hasOwn(from, PROTO_KEY) && !Object.hasOwn(to, PROTO_KEY)) return [...item.path, PROTO_KEY];
    const keys = Object.keys(from);
    for (let i = keys.length - 1; i >= 0; i--) {
      const key = keys[i] as string;
      if (Object.hasOwn(to, key)) work.push({ input: from[key], output: to[key], path: [...item.path, key] });
    }
  }
  return undefined;
}

/**
 * Puts back on `output` (what validating `input` produced, made of fresh objects) every own
 * `__proto__` key of `input` it lost, as an own property holding the input's value: data that
 * happened to use that name stays data. One walk, as {@link findLostProtoKey} walks.
 */
export function restoreLostProtoKeys(input: unknown, output: unknown): void {
  const work: unknown[] = [input, output];
  while (work.length > 0) {
    const to = work.pop() as Record<string, unknown>;
    const from = work.pop() as Record<string, unknown>;
    if (from === to || typeof from !== 'object' || from === null || typeof to !== 'object' || to === null) {
      continue;
    }
    if (Object.hasOwn(from, PROTO_KEY) && !Object.hasOwn(to, PROTO_KEY)) {
      Object.defineProperty(to, PROTO_KEY, { value: from[PROTO_KEY], enumerable: true, writable: true });
    }
    // Arrays too: their indexes are their keys.
    for (const key of Object.keys(from)) {
      if (key !== PROTO_KEY && Object.hasOwn(to, key)) work.push(from[key], to[key]);
    }
  }
}
