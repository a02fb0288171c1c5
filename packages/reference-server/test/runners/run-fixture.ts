import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/** What a runner printed and how it exited. */
export interface RunnerRun {
  status: number;
  stdout: string;
  stderr: string;
}

/**
 * Runs a test runner's command on a fixture project, as CI would (no colours, `CI=1`); resolves
 * once it exits, whatever the code. Fixture files are meant to fail: the caller reads the output.
 * A run still going after 120 s is killed.
 */
export function runFixture(
  command: string,
  args: readonly string[],
  cwd: string,
  env: Record<string, string> = {},
): Promise<RunnerRun> {
  return new Promise((resolve) => {
    execFile(
      command,
      args,
      {
        cwd,
        env: { ...process.env, CI: '1', FORCE_COLOR: '0', NO_COLOR: '1', ...env },
        maxBuffer: 64 * 1024 * 1024,
        // A runner that hangs is killed (status 1), never left behind the test.
        timeout: 120_000,
      },
      (error, stdout, stderr) => {
        const code = error === null ? 0 : typeof error.code === 'number' ? error.code : 1;
        resolve({ status: code, stdout, stderr });
      },
    );
  });
}

/** vitest's own command (its package's `bin`), started with node: no npx between a test and it. */
export const VITEST_BIN = fileURLToPath(new URL('vitest.mjs', import.meta.resolve('vitest/package.json')));

/** Runs `vitest run --config <config> ...args` in `cwd`; its exit code and its output (stdout, then stderr). */
export async function runVitest(
  config: string,
  args: readonly string[],
  cwd: string,
  env: Record<string, string> = {},
): Promise<{ status: number; output: string }> {
  const run = await runFixture(process.execPath, [VITEST_BIN, 'run', '--config', config, ...args], cwd, env);
  return { status: run.status, output: `${run.stdout}\n${run.stderr}` };
}
