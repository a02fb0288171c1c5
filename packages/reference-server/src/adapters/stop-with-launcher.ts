/** How often the server looks whether its launcher is still there. */
export const LAUNCHER_CHECK_INTERVAL_MS = 1000;

/**
 * Whether a package manager started the process (`npx parley-server`, `npm exec`, `pnpm start`):
 * it runs the bin through `sh -c`, and killing it (SIGTERM to `$!` in a CI script) passes no signal
 * on, leaving the server orphaned and serving.
 */
export function launchedByPackageManager(env: Readonly<Record<string, string | undefined>>): boolean {
  return env.npm_command !== undefined || env.npm_lifecycle_event !== undefined;
}

/**
 * Calls `stop` once the process's parent changes (the launcher died and the process was adopted by
 * init or a subreaper): a server started through npx stops when npx is killed, even though the
 * signal never reached it. Checks every {@link LAUNCHER_CHECK_INTERVAL_MS} on an unref'd timer, so it
 * never keeps the process alive. Returns a function that stops watching.
 */
export function stopWithLauncher(stop: () => void, parentPid: () => number): () => void {
  const launcher = parentPid();
  const timer = setInterval(() => {
    if (parentPid() === launcher) return;
    clearInterval(timer);
    stop();
  }, LAUNCHER_CHECK_INTERVAL_MS);
  timer.unref();
  return () => clearInterval(timer);
}
