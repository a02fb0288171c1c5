/** Encodes an id for use as one path segment; an empty id is a programming error. */
export function pathSegment(value: string): string {
  if (typeof value !== 'string' || value === '') throw new TypeError('Expected a non-empty id');
  return encodeURIComponent(value);
}
