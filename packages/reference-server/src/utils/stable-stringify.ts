/**
 * JSON with object keys sorted, so two equal values give the same text whatever their key order.
 * Works without recursion, so a deeply nested value cannot overflow the stack. Follows
 * `JSON.stringify`: `toJSON` is called, `undefined`, functions and symbols are left out of objects
 * and are `null` in arrays; a top-level value that has no JSON text gives `"undefined"`.
 */
export function stableStringify(value: unknown): string {
  const out: string[] = [];
  // Work items, last first: a value to write (with the key `toJSON` is given) or literal text.
  const work: Array<{ value: unknown; key: string } | string> = [{ value, key: '' }];
  let top = true;
  while (work.length > 0) {
    const item = work.pop() as (typeof work)[number];
    if (typeof item === 'string') {
      out.push(item);
      continue;
    }
    const current = prepare(item.value, item.key);
    if (current === null || typeof current !== 'object') {
      const text = JSON.stringify(current) as string | undefined;
      if (text === undefined && top) return 'undefined';
      out.push(text ?? 'null');
      top = false;
      continue;
    }
    top = false;
    if (Array.isArray(current)) {
      work.push(']');
      for (let i = current.length - 1; i >= 0; i--) {
        work.push({ value: current[i], key: String(i) });
        if (i > 0) work.push(',');
      }
      out.push('[');
      continue;
    }
    const record = current as Record<string, unknown>;
    const keys = Object.keys(record)
      .sort()
      .filter((key) => hasJson(prepare(record[key], key)));
    work.push('}');
    for (let i = keys.length - 1; i >= 0; i--) {
      const key = keys[i] as string;
      work.push({ value: record[key], key });
      work.push(`${i > 0 ? ',' : ''}${JSON.stringify(key)}:`);
    }
    out.push('{');
  }
  return out.join('');
}

/** The value `JSON.stringify` would write for `value` under `key` (after `toJSON`). */
function prepare(value: unknown, key: string): unknown {
  if (
    value !== null &&
    typeof value === 'object' &&
    typeof (value as { toJSON?: unknown }).toJSON === 'function'
  ) {
    return (value as { toJSON(key: string): unknown }).toJSON(key);
  }
  return value;
}

/** Whether an object member with this (prepared) value is written at all. */
function hasJson(value: unknown): boolean {
  return value !== undefined && typeof value !== 'function' && typeof value !== 'symbol';
}
