/** The reserved path prefix of the control and inspection routes (outside `/v1`). */
export const CONTROL_PREFIX = '/_parley';

/** Whether `pathname` is under {@link CONTROL_PREFIX}. */
export function isControlPath(pathname: string): boolean {
  return pathname === CONTROL_PREFIX || pathname.startsWith(`${CONTROL_PREFIX}/`);
}

/**
 * What a server without control routes adds to the `route_not_found` of a path under
 * {@link CONTROL_PREFIX}: how to turn them on.
 */
export function controlOffHint(pathname: string): string | undefined {
  return isControlPath(pathname)
    ? `the journal and control routes (${CONTROL_PREFIX}/) are on only when the server is started with --control ` +
        '(in code: createReferenceServer({ control: true }))'
    : undefined;
}
