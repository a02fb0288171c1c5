// Starts a bench server (serve-target.ts) in a child process and talks to it over IPC. The reference
// server is the built package (dist/), as users run it: `pnpm bench` builds it first.
import { type ChildProcess, fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/** A server in a child process: its URL, the process, and a reset (its sessions gone). */
export interface Target {
  url: string;
  child: ChildProcess;
  reset(): Promise<void>;
}

export async function startTarget(
  kind: 'bare' | 'hono' | 'reference',
  execArgv: string[] = [],
): Promise<Target> {
  // BENCH_CPU_PROF=<dir>: each reference target writes a CPU profile there when it exits.
  const profile = process.env.BENCH_CPU_PROF;
  const profiling = kind === 'reference' && profile !== undefined;
  const child = fork(fileURLToPath(new URL('./serve-target.ts', import.meta.url)), [kind], {
    execArgv: [
      '--import',
      'tsx',
      ...(profiling ? ['--cpu-prof', `--cpu-prof-dir=${profile}`] : []),
      ...execArgv,
    ],
  });
  const url = await new Promise<string>((resolve, reject) => {
    child.once('message', (message) => resolve((message as { url: string }).url));
    child.once('exit', (code) => reject(new Error(`the ${kind} server exited (${code})`)));
  });
  const reset = () =>
    new Promise<void>((resolve) => {
      child.once('message', () => resolve());
      child.send('reset');
    });
  return { url, child, reset };
}
