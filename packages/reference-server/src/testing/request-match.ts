import { describeValue } from '../utils/check-options.js';

/**
 * Checks a fault's or chaos's `match` when it is set, so a bad one fails there rather than every
 * later request: `method` a string, `path` a string or a `RegExp`, and no other key (a misspelt
 * one, `paht`, would otherwise match every request). Throws a TypeError naming what is wrong.
 */
export function checkRequestMatch(match: unknown, where: string): void {
  if (match === undefined) return;
  for (const [key, value] of Object.entries(match as object)) {
    const wrong = (expected: string) =>
      new TypeError(`${where}: match.${key} must be ${expected}, got ${describeValue(value)}`);
    if (key === 'method') {
      if (value !== undefined && typeof value !== 'string') throw wrong('a string');
    } else if (key === 'path') {
      if (value !== undefined && typeof value !== 'string' && !(value instanceof RegExp)) {
        throw wrong('a string or a RegExp');
      }
    } else {
      throw new TypeError(`${where}: match takes method and path, not ${JSON.stringify(key)}`);
    }
  }
}
