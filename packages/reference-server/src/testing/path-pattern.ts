/**
 * A path condition: an exact path where `*` stands for one path segment (or part of one), e.g.
 * `/v1/messages/*` (the buffered send) or `/v1/messages/*\/stream`, or a `RegExp`.
 */
export type PathPattern = string | RegExp;

/** Whether `pathname` matches `pattern` (see {@link PathPattern}). */
export function matchesPath(pattern: PathPattern, pathname: string): boolean {
  if (pattern instanceof RegExp)
    return new RegExp(pattern.source, pattern.flags.replace(/[gy]/g, '')).test(pathname);
  const source = pattern
    .split('*')
    .map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
    .join('[^/]*');
  return new RegExp(`^${source}$`).test(pathname);
}
