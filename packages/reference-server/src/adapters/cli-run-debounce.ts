/**
 * How long after the first stop signal another one counts as the same: one Ctrl+C under a package
 * manager arrives twice (from the terminal and relayed by npm or pnpm), and `timeout` signals its
 * child and then its whole group, within milliseconds. A signal later than this is a second
 * request: it kills the command.
 */
export const SIGNAL_DEBOUNCE_MS = 1000;
