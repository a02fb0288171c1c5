import type { z } from 'zod';
import { HttpError } from '../http-error.js';
import { findLostProtoKey, PROTO_KEY } from '../utils/lost-proto-key.js';
import { unrecognizedKeysMessage } from './unrecognized-keys.js';

/** Options of {@link parseWith}. */
export interface ParseOptions<T> {
  /**
   * Top-level fields of the body holding the client's own free-form JSON (a tool response): once
   * valid, they are taken as sent, every key kept, instead of as the schema copied them.
   */
  asSent?: ReadonlyArray<keyof T & string>;
}

/**
 * Validates `value` with `schema`; a failure is `400 invalid_request` naming each field path (an
 * unknown field with the known one it is nearest to, see `unrecognizedKeysMessage`). No
 * key is dropped silently: where validating would lose a key named `__proto__` (zod skips it when
 * it copies records and loose objects), the body is `400 invalid_request` naming that key, unless
 * the field is taken {@link ParseOptions.asSent as sent}.
 */
export function parseWith<T>(
  schema: z.ZodType<T>,
  value: unknown,
  what = 'body',
  options: ParseOptions<T> = {},
): T {
  const result = schema.safeParse(value);
  if (result.success) {
    const data = result.data;
    if (options.asSent !== undefined && isRecord(data) && isRecord(value)) {
      const target = data as Record<string, unknown>;
      for (const field of options.asSent) if (Object.hasOwn(value, field)) target[field] = value[field];
    }
    const lost = findLostProtoKey(value, data);
    if (lost !== undefined) {
      const path = lost.map(String).join('.');
      const message = `a key named "${PROTO_KEY}" is not accepted here (it could not be kept): rename it`;
      throw new HttpError('invalid_request', `${path}: ${message}`, {
        details: { issues: [{ path, message }] },
      });
    }
    return data;
  }
  const issues = flattenIssues(schema, result.error.issues, []).map((issue) => ({
    path: issue.path.length === 0 ? `(${what})` : issue.path.map(String).join('.'),
    message: issue.message,
  }));
  throw new HttpError('invalid_request', issues.map((i) => `${i.path}: ${i.message}`).join('; '), {
    details: { issues },
  });
}

interface FlatIssue {
  path: PropertyKey[];
  message: string;
}

/**
 * A failed union reports "Invalid input" with one issue list per branch. Report instead the branch
 * that got furthest into the value (its deepest issue), which is the one the caller meant: for
 * `content: [{ type: 'tool_result' }]` the array branch, not "expected string".
 */
function flattenIssues(
  schema: z.core.$ZodType,
  issues: readonly z.core.$ZodIssue[],
  base: PropertyKey[],
): FlatIssue[] {
  return issues.flatMap((issue) => {
    const path = [...base, ...issue.path];
    if (issue.code === 'invalid_union' && issue.errors.length > 0) {
      const branches = issue.errors.map((branch) => flattenIssues(schema, branch, path));
      const depth = (branch: FlatIssue[]) => Math.max(...branch.map((i) => i.path.length));
      const best = branches.reduce((a, b) => (depth(b) > depth(a) ? b : a));
      if (depth(best) > path.length) return best;
    }
    if (issue.code === 'unrecognized_keys')
      return [{ path, message: unrecognizedKeysMessage(schema, { ...issue, path }) }];
    return [{ path, message: issue.message }];
  });
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
