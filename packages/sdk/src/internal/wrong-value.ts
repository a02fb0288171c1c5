// How a check where a value is used names what it got: `timeoutMs must be a number, got "5000" (a
// string)`. Each value is checked where the SDK uses it (a timer, a URL, a callback), not by a
// generic options check.

/** `"5000" (a string)`, `5000 (a number)`, `an object`, `null`: a value as an error message quotes it. */
export function describeValue(value: unknown): string {
  if (value === null || value === undefined) return String(value);
  if (Array.isArray(value)) return 'an array';
  const type = typeof value;
  if (type === 'object') return 'an object';
  if (type === 'function') return 'a function';
  const text =
    typeof value === 'string'
      ? JSON.stringify(value.length > 60 ? `${value.slice(0, 60)}...` : value)
      : `${String(value)}${type === 'bigint' ? 'n' : ''}`;
  return `${text} (a ${type})`;
}

/** `new Parley(): timeoutMs must be a number, got "5000" (a string)`. */
export function wrongValue(where: string, name: string, expected: string, value: unknown): TypeError {
  return new TypeError(`${where}: ${name} must be ${expected}, got ${describeValue(value)}`);
}

/** An id parameter: a non-empty string, else `messages.send(): sessionId must be a string, got an object`. */
export function checkId(value: unknown, where: string, name: string): string {
  if (typeof value !== 'string' || value === '') {
    throw wrongValue(where, name, value === '' ? 'a non-empty string' : 'a string', value);
  }
  return value;
}
