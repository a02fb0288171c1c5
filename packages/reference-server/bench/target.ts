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

/**
 * @param env variables for the child on top of this process's: `BENCH_SERVER_OPTIONS` (JSON options
 * of the reference server, e.g. an `upstream`), `BENCH_SCRIPT` (a JSON script it answers with),
 * `BENCH_LATENCY_MS` (a wait before each request) and `BENCH_UPSTREAM` (the bare hop's upstream).
 */
export async function startTarget(
  kind: 'bare' | 'hono' | 'bare-hop' | 'reference',
  execArgv: string[] = [],
  env: Record<string, string> = {},
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
    env: { ...process.env, ...env },
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
