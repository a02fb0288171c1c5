import type { ValidationIssue } from '../errors/index.js';

/**
 * A hand-written check of the fields the SDK reads from a response. It adds an issue for each
 * mismatch and never changes the value: unknown fields, and any field it does not name, pass
 * through untouched (forward compatibility).
 *
 * @internal
 */
export type Shape = (value: unknown, path: PropertyKey[], issues: ValidationIssue[]) => void;

function kindOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}

function mismatch(issues: ValidationIssue[], path: PropertyKey[], expected: string, value: unknown): void {
  issues.push({ message: `expected ${expected}, got ${kindOf(value)}`, path: [...path] });
}

/** True for a plain JSON object (not null, not an array). */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export const string: Shape = (value, path, issues) => {
  if (typeof value !== 'string') mismatch(issues, path, 'a string', value);
};

export const number: Shape = (value, path, issues) => {
  if (typeof value !== 'number') mismatch(issues, path, 'a number', value);
};

export const record: Shape = (value, path, issues) => {
  if (!isRecord(value)) mismatch(issues, path, 'an object', value);
};

/** One of the given strings. */
export function literal(...allowed: string[]): Shape {
  const list = allowed.map((a) => JSON.stringify(a)).join(' | ');
  return (value, path, issues) => {
    if (typeof value !== 'string' || !allowed.includes(value)) {
      issues.push({
        message: `expected ${list}, got ${JSON.stringify(value) ?? 'undefined'}`,
        path: [...path],
      });
    }
  };
}

export function optional(shape: Shape): Shape {
  return (value, path, issues) => {
    if (value !== undefined) shape(value, path, issues);
  };
}

export function nullable(shape: Shape): Shape {
  return (value, path, issues) => {
    if (value !== null) shape(value, path, issues);
  };
}

export function arrayOf(item: Shape): Shape {
  return (value, path, issues) => {
    if (!Array.isArray(value)) return mismatch(issues, path, 'an array', value);
    for (let i = 0; i < value.length; i++) {
      path.push(i);
      item(value[i], path, issues);
      path.pop();
    }
  };
}

/** An object with (at least) these fields; other fields are not looked at. */
export function object(fields: Record<string, Shape>): Shape {
  const entries = Object.entries(fields);
  return (value, path, issues) => {
    if (!isRecord(value)) return mismatch(issues, path, 'an object', value);
    for (const [key, shape] of entries) {
      path.push(key);
      shape(value[key], path, issues);
      path.pop();
    }
  };
}

/** The issues of `value` against `shape`; empty when it fits. */
export function check(shape: Shape, value: unknown): ValidationIssue[] {
  const issues: ValidationIssue[] = [];
  shape(value, [], issues);
  return issues;
}

/** `sessions.0.sessionId: expected a string, got a number` */
export function describeIssue(issue: ValidationIssue): string {
  return `${issue.path.map(String).join('.') || '(root)'}: ${issue.message}`;
}
