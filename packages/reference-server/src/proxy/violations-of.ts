import type { z } from 'zod';
import type { ProtocolViolation } from '../http/protocol-violation.js';

/** Where a value sits in a body: keys and array indexes from the body's root. */
export type BodyPath = ReadonlyArray<PropertyKey>;

/** `events[3].contentBlockDelta.delta.text` from `['events', 3, 'contentBlockDelta', ...]`. */
export function formatPath(path: BodyPath): string {
  let text = '';
  for (const key of path) {
    if (typeof key === 'number') text += `[${key}]`;
    else text += text === '' ? String(key) : `.${String(key)}`;
  }
  return text;
}

/**
 * The violations of `value` against `schema`, each with its path under `base`, what the schema
 * expects there and what came; none when the value is valid.
 */
export function violationsOf(
  schema: z.ZodType,
  value: unknown,
  where: ProtocolViolation['in'],
  base: BodyPath = [],
): ProtocolViolation[] {
  const result = schema.safeParse(value);
  if (result.success) return [];
  return flatten(result.error.issues, []).map((issue) => ({
    in: where,
    path: formatPath([...base, ...issue.path]),
    expected: issue.expected,
    got: describeValue(valueAt(value, issue.path, issue.unrecognized)),
  }));
}

interface FlatIssue {
  path: PropertyKey[];
  expected: string;
  /** For an unknown key: its name (the path then ends with it). */
  unrecognized?: true;
}

/** A failed union: the branch that got furthest into the value, as the server's own validation reports it. */
function flatten(issues: readonly z.core.$ZodIssue[], base: PropertyKey[]): FlatIssue[] {
  return issues.flatMap((issue): FlatIssue[] => {
    const path = [...base, ...issue.path];
    if (issue.code === 'invalid_union' && issue.errors.length > 0) {
      const branches = issue.errors.map((branch) => flatten(branch, path));
      const depth = (branch: FlatIssue[]) => Math.max(...branch.map((i) => i.path.length));
      const best = branches.reduce((a, b) => (depth(b) > depth(a) ? b : a));
      if (depth(best) > path.length) return best;
      // A union with a message of its own says what it takes; zod's default says nothing.
      const own = issue.message !== 'Invalid input' ? issue.message : undefined;
      return [{ path, expected: own ?? 'one of the shapes the protocol allows here' }];
    }
    if (issue.code === 'unrecognized_keys') {
      return issue.keys.map((key) => ({
        path: [...path, key],
        expected: 'no such field',
        unrecognized: true,
      }));
    }
    return [{ path, expected: expectedOf(issue) }];
  });
}

function expectedOf(issue: z.core.$ZodIssue): string {
  switch (issue.code) {
    case 'invalid_type':
      return issue.expected;
    case 'invalid_value':
      return `one of ${issue.values.map((v) => JSON.stringify(v)).join(', ')}`;
    default:
      // too_small, too_big, invalid_format, custom: zod's message says it ("must not be empty").
      return issue.message;
  }
}

function valueAt(value: unknown, path: readonly PropertyKey[], present?: true): unknown {
  let at = value;
  for (const key of path) {
    if (typeof at !== 'object' || at === null) return undefined;
    at = (at as Record<PropertyKey, unknown>)[key];
  }
  return present && at === undefined ? null : at;
}

const SHOWN_CHARS = 60;

/** `number 42`, `string "abc"`, `nothing`, `object {"a":1}` (the JSON cut at 60 characters). */
export function describeValue(value: unknown): string {
  if (value === undefined) return 'nothing';
  if (value === null) return 'null';
  const type = Array.isArray(value) ? 'array' : typeof value;
  const json = JSON.stringify(value) ?? String(value);
  return `${type} ${json.length > SHOWN_CHARS ? `${json.slice(0, SHOWN_CHARS)}...` : json}`;
}

/** Text shown as what came: its first characters, quoted. */
export function describeText(text: string): string {
  const shown = text.length > SHOWN_CHARS ? `${text.slice(0, SHOWN_CHARS)}...` : text;
  return `text ${JSON.stringify(shown)}`;
}
