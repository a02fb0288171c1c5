import { nearestName } from './nearest-name.js';

// The check of the server's options objects. TypeScript passes a wider object where a narrower one
// is expected, so a key an options type lacks is valid and never refused: an unknown key near one
// the object lacks (`heartbeatTimeout` for `heartbeatTimeoutMs`) is named in a warning, as Jest's
// config validator does, and any other is ignored. A value of the wrong type throws a TypeError.

/** What an option's value must be, checked with `typeof` (`object`: not null, not an array). */
export type OptionType = 'string' | 'number' | 'boolean' | 'function' | 'object' | 'array';

/** The type tag an option of type `V` may have: its own, or `true` (any value, checked elsewhere). */
type TagOf<V> = [V] extends [never]
  ? true
  : [V] extends [string]
    ? 'string' | true
    : [V] extends [number]
      ? 'number' | true
      : [V] extends [boolean]
        ? 'boolean' | true
        : [V] extends [(...args: never[]) => unknown]
          ? 'function' | true
          : [V] extends [readonly unknown[]]
            ? 'array' | true
            : [V] extends [object]
              ? 'object' | true
              : true;

/**
 * Every key of an options type `T`, each with its type tag or `true`: write the list as
 * `{ ... } as const satisfies OptionKeys<T>`, and TypeScript fails until it names every key of `T`
 * and no other (so a new option is one more line in its list), with a tag that fits the key's type.
 */
export type OptionKeys<T> = { readonly [K in keyof T]-?: TagOf<Exclude<T[K], undefined>> };

/** `"5000" (a string)`, `5000 (a number)`, `an object`, `null`: a value as an error message quotes it. */
export function describeValue(value: unknown): string {
  if (value === null || value === undefined) return String(value);
  if (Array.isArray(value)) return 'an array';
  const type = typeof value;
  if (type === 'object' || type === 'function') return article(type);
  const text =
    type === 'string'
      ? JSON.stringify((value as string).length > 60 ? `${(value as string).slice(0, 60)}...` : value)
      : `${String(value)}${type === 'bigint' ? 'n' : ''}`;
  return `${text} (${article(type)})`;
}

/** `a string`, `an object`. */
function article(type: string): string {
  return `${/^[aeiou]/.test(type) ? 'an' : 'a'} ${type}`;
}

/** `new Parley(): timeoutMs must be a number, got "5000" (a string)`. */
export function wrongValue(where: string, name: string, expected: string, value: unknown): TypeError {
  return new TypeError(`${where}: ${name} must be ${expected}, got ${describeValue(value)}`);
}

function matches(type: OptionType, value: unknown): boolean {
  if (type === 'array') return Array.isArray(value);
  if (type === 'object') return typeof value === 'object' && value !== null && !Array.isArray(value);
  return typeof value === type;
}

const warned = new Set<string>();

/**
 * Checks an options object against its key list: `undefined` passes; anything but an object and a
 * value of the wrong type (`startServer(): port must be a number, got "80" (a string)`) throw a
 * `TypeError`; an unknown key near a known one the object lacks is written to `console.warn` once
 * (`Unknown option "heartbeatTimeout" for createReferenceServer(); did you mean
 * "heartbeatTimeoutMs"?`). `where` names the call; `renamed` maps a key users are known to reach for
 * to the one meant (`{ path: 'file' }`), when the nearest by spelling is not it. An `undefined`
 * value is never checked (as if the key were left out).
 */
export function checkOptions(
  options: unknown,
  keys: Readonly<Record<string, OptionType | true>>,
  where: string,
  renamed?: Readonly<Record<string, string>>,
): void {
  if (options === undefined) return;
  if (typeof options !== 'object' || options === null || Array.isArray(options)) {
    throw wrongValue(where, 'the options', 'an object', options);
  }
  for (const [key, value] of Object.entries(options)) {
    const type = Object.hasOwn(keys, key) ? keys[key] : undefined;
    if (type !== undefined && type !== true && value !== undefined && !matches(type, value)) {
      throw wrongValue(where, key, article(type), value);
    }
  }
  for (const line of typoWarnings(options, keys, where, renamed)) warnOnce(line);
}

/** The warning of each unknown key of `options` near a known key it lacks (see {@link checkOptions}). */
export function typoWarnings(
  options: object,
  keys: Readonly<Record<string, unknown>>,
  where: string,
  renamed?: Readonly<Record<string, string>>,
): string[] {
  const absent = Object.keys(keys).filter((known) => !Object.hasOwn(options, known));
  return Object.keys(options).flatMap((key) => {
    if (Object.hasOwn(keys, key)) return [];
    const meant =
      renamed !== undefined && Object.hasOwn(renamed, key) ? renamed[key] : nearestName(key, absent);
    return meant === undefined ? [] : [`[parley] ${unknownOption(key, where, meant)}`];
  });
}

/** `Unknown option "casette" for driftReport(); did you mean "cassette"?` */
export function unknownOption(key: string, where: string, meant: string): string {
  return `Unknown option ${JSON.stringify(key)} for ${where}; did you mean ${JSON.stringify(meant)}?`;
}

function warnOnce(line: string): void {
  if (warned.has(line)) return;
  warned.add(line);
  console.warn(line);
}

/** An id parameter: a non-empty string, else `messages.send(): sessionId must be a string, got an object`. */
export function checkId(value: unknown, where: string, name: string): string {
  if (typeof value !== 'string') throw wrongValue(where, name, 'a string', value);
  if (value === '') throw wrongValue(where, name, 'a non-empty string', value);
  return value;
}

/** Throws a TypeError naming the option when a given value is not one of `values`. */
export function oneOf(name: string, value: unknown, values: readonly string[]): void {
  if (value !== undefined && !values.includes(value as string)) {
    throw new TypeError(`${name} ${JSON.stringify(value)} is not one of ${values.join(', ')}`);
  }
}
