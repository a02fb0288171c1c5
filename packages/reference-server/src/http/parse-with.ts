import type { z } from 'zod';
import { HttpError } from '../http-error.js';

/** Validates `value` with `schema`; a failure is `400 invalid_request` naming each field path. */
export function parseWith<T>(schema: z.ZodType<T>, value: unknown, what = 'body'): T {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const issues = flattenIssues(result.error.issues, []).map((issue) => ({
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
function flattenIssues(issues: readonly z.core.$ZodIssue[], base: PropertyKey[]): FlatIssue[] {
  return issues.flatMap((issue) => {
    const path = [...base, ...issue.path];
    if (issue.code === 'invalid_union' && issue.errors.length > 0) {
      const branches = issue.errors.map((branch) => flattenIssues(branch, path));
      const depth = (branch: FlatIssue[]) => Math.max(...branch.map((i) => i.path.length));
      const best = branches.reduce((a, b) => (depth(b) > depth(a) ? b : a));
      if (depth(best) > path.length) return best;
    }
    return [{ path, message: issue.message }];
  });
}
