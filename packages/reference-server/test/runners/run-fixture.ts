import { execFile } from 'node:child_process';

/** What a runner printed and how it exited. */
export interface RunnerRun {
  status: number;
  stdout: string;
  stderr: string;
}

/**
 * Runs a test runner's command on a fixture project, as CI would (no colours, `CI=1`); resolves
 * once it exits, whatever the code. Fixture files are meant to fail: the caller reads the output.
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
      },
      (error, stdout, stderr) => {
        const code = error === null ? 0 : typeof error.code === 'number' ? error.code : 1;
        resolve({ status: code, stdout, stderr });
      },
    );
  });
}
