/** Where a value stops being plain JSON data, and what was found there. */
export interface NonPlainData {
  /** A JavaScript-style path from the root, e.g. `output.rows[2].when`. */
  path: string;
  /** What was found, e.g. `a function`, `a Date (class instance)`, `a circular reference`. */
  found: string;
  /** What reading the value threw, when a getter (or a proxy) failed: the error's own cause. */
  thrown?: unknown;
}

/**
 * Finds the first part of `value` that is not plain JSON data: plain objects (prototype
 * `Object.prototype` or `null`), arrays, strings, numbers, booleans, `null` and `undefined` (which
 * JSON drops from objects). Anything else would be changed or refused by the structured clone that
 * carries values between threads (functions, symbols, class instances that lose their prototype
 * and `toJSON`) or by the JSON the SDK sends (bigint, cycles). Returns `undefined` when it is all
 * plain data. Never throws: a getter (or a proxy) that throws while the value is read is the
 * problem found there, with what it threw as `thrown`.
 */
export function findNonPlainData(value: unknown, root: string): NonPlainData | undefined {
  return visit(value, root, new Set());
}

function visit(value: unknown, path: string, ancestors: Set<object>): NonPlainData | undefined {
  switch (typeof value) {
    case 'string':
    case 'number':
    case 'boolean':
    case 'undefined':
      return undefined;
    case 'function':
      return { path, found: 'a function' };
    case 'symbol':
      return { path, found: 'a symbol' };
    case 'bigint':
      return { path, found: 'a bigint (JSON has no bigint; send it as a string)' };
  }
  if (value === null) return undefined;
  const object = value as object;
  try {
    return visitObject(object, path, ancestors);
  } catch (thrown) {
    // A proxy's trap (its prototype, keys or length): the object itself could not be read.
    return { path, found: `an object that threw when read${thrownText(thrown)}`, thrown };
  }
}

function visitObject(object: object, path: string, ancestors: Set<object>): NonPlainData | undefined {
  if (ancestors.has(object)) return { path, found: 'a circular reference' };
  const isArray = Array.isArray(object);
  if (!isArray) {
    const proto: unknown = Object.getPrototypeOf(object);
    if (proto !== Object.prototype && proto !== null) return { path, found: describeInstance(object) };
  }
  ancestors.add(object);
  try {
    if (isArray) {
      const array = object as unknown[];
      for (let i = 0; i < array.length; i++) {
        const problem = visitProperty(array, i, `${path}[${i}]`, ancestors);
        if (problem) return problem;
      }
      return undefined;
    }
    for (const key of Object.keys(object)) {
      const child = /^[A-Za-z_$][\w$]*$/.test(key) ? `${path}.${key}` : `${path}[${JSON.stringify(key)}]`;
      const problem = visitProperty(object, key, child, ancestors);
      if (problem) return problem;
    }
    return undefined;
  } finally {
    ancestors.delete(object);
  }
}

/** Reads one property (a getter runs here) and visits its value. */
function visitProperty(
  object: object,
  key: string | number,
  path: string,
  ancestors: Set<object>,
): NonPlainData | undefined {
  let value: unknown;
  try {
    value = (object as Record<string | number, unknown>)[key];
  } catch (thrown) {
    return { path, found: `a property that threw when read${thrownText(thrown)}`, thrown };
  }
  return visit(value, path, ancestors);
}

/** ` (RangeError: sum overflowed)`: what a read threw, for the message; empty if it cannot be read. */
function thrownText(thrown: unknown): string {
  try {
    if (thrown instanceof Error) return ` (${String(thrown.name)}: ${String(thrown.message)})`;
    return typeof thrown === 'string' ? ` (${thrown})` : '';
  } catch {
    return '';
  }
}

function describeInstance(object: object): string {
  const name = (object as { constructor?: { name?: unknown } }).constructor?.name;
  const label = typeof name === 'string' && name !== '' ? name : 'an object with a custom prototype';
  const hint = object instanceof Date ? '; send date.toISOString()' : '';
  return `${typeof name === 'string' && name !== '' ? `a ${label}` : label} (class instance${hint})`;
}
