// The one check of an options object, shared by the SDK and the reference server. It imports
// nothing (no zod): the SDK's build inlines it as it inlines the stream scanner.

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

/** Levenshtein distance between `a` and `b` (insertions, deletions, substitutions), one row kept. */
export function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const substitution = (previous[j - 1] as number) + (a[i - 1] === b[j - 1] ? 0 : 1);
      current[j] = Math.min(substitution, (previous[j] as number) + 1, (current[j - 1] as number) + 1);
    }
    previous = current;
  }
  return previous[b.length] as number;
}

/** The known key nearest to `key` by edit distance (case ignored); the first of equally near ones. */
export function nearestKey(key: string, known: readonly string[]): string | undefined {
  const lower = key.toLowerCase();
  let best: { key: string; distance: number } | undefined;
  for (const candidate of known) {
    const distance = editDistance(lower, candidate.toLowerCase());
    if (best === undefined || distance < best.distance) best = { key: candidate, distance };
  }
  return best?.key;
}

function matches(type: OptionType, value: unknown): boolean {
  if (type === 'array') return Array.isArray(value);
  if (type === 'object') return typeof value === 'object' && value !== null && !Array.isArray(value);
  return typeof value === type;
}

/**
 * Checks an options object against its key list: `undefined` passes; anything but an object, a key
 * the list does not name (`Unknown option "timeout" for new Parley(); did you mean "timeoutMs"?`)
 * and a value of the wrong type (`new Parley(): timeoutMs must be a number, got "5000" (a string)`)
 * throw a `TypeError`. `where` names the call (`new Parley()`); `renamed` maps a key users are
 * known to reach for to the one meant (`{ path: 'file' }`), when the nearest by spelling is not it.
 * An `undefined` value is never checked (as if the key were left out).
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
  for (const key of Object.keys(options)) {
    const type = Object.hasOwn(keys, key) ? keys[key] : undefined;
    if (type === undefined) {
      const meant =
        renamed !== undefined && Object.hasOwn(renamed, key)
          ? renamed[key]
          : nearestKey(key, Object.keys(keys));
      throw new TypeError(
        `Unknown option ${JSON.stringify(key)} for ${where}` +
          (meant === undefined ? '' : `; did you mean ${JSON.stringify(meant)}?`),
      );
    }
    const value = (options as Record<string, unknown>)[key];
    if (type !== true && value !== undefined && !matches(type, value)) {
      throw wrongValue(where, key, article(type), value);
    }
  }
}

/** An id parameter: a non-empty string, else `messages.send(): sessionId must be a string, got an object`. */
export function checkId(value: unknown, where: string, name: string): string {
  if (typeof value !== 'string') throw wrongValue(where, name, 'a string', value);
  if (value === '') throw wrongValue(where, name, 'a non-empty string', value);
  return value;
}
