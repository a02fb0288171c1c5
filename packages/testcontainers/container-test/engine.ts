import { execFile } from 'node:child_process';

/** The image under test: built from the repository by scripts/container/build-image.sh. */
export const IMAGE = process.env.PARLEY_IMAGE ?? 'localhost/parley:dev';

/** The container CLI the image tests drive, as a user would (`podman`, or `docker`). */
export const CLI = process.env.PARLEY_CONTAINER_CLI ?? 'podman';

export interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs the container CLI to its end: its exit code and output (never throws for a non-zero code). */
export function engine(...args: string[]): Promise<Run> {
  return new Promise((resolve) => {
    execFile(CLI, args, { encoding: 'utf8', maxBuffer: 16 * 1024 * 1024 }, (error, stdout, stderr) => {
      const code = error === null ? 0 : typeof error.code === 'number' ? error.code : 1;
      resolve({ code, stdout, stderr });
    });
  });
}

/** Like {@link engine}, failing with the output when the exit code is not 0. */
export async function engineOk(...args: string[]): Promise<string> {
  const run = await engine(...args);
  if (run.code !== 0)
    throw new Error(`${CLI} ${args.join(' ')} exited ${run.code}: ${run.stderr}${run.stdout}`);
  return run.stdout.trim();
}

/** Waits for a container to end: its exit code (`podman wait`). */
export async function exitCodeOf(container: string): Promise<number> {
  return Number(await engineOk('wait', container));
}

/** A container's output, both streams. */
export async function logsOf(container: string): Promise<{ stdout: string; stderr: string }> {
  const run = await engine('logs', container);
  return { stdout: run.stdout, stderr: run.stderr };
}

/** Polls `url` until it answers 200 (a published port); rejects after `attempts` tries 100 ms apart. */
export async function until200(url: string, attempts = 450): Promise<void> {
  for (let i = 0; i < attempts; i++) {
    const ok = await fetch(url).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${url} did not answer 200`);
}
