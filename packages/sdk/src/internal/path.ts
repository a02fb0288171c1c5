import { checkId } from './wrong-value.js';

/**
 * Encodes an id for use as one path segment. Anything but a non-empty string is a programming error,
 * named with the method and parameter: `messages.send(): sessionId must be a string, got an object`.
 */
export function pathSegment(value: string, where: string, name: string): string {
  return encodeURIComponent(checkId(value, where, name));
}
