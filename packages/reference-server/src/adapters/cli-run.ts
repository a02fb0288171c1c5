import { type ChildProcess, spawn } from 'node:child_process';
import { constants } from 'node:os';
import process from 'node:process';
import type { CliIo } from './cli-command.js';
import { type CliContext, runCli } from './cli-main.js';
import type { RunningServer } from './start-server.js';
import { StopFailure } from './stop-failure.js';
import { type SignalSource, STOP_SIGNALS, type StopSignal } from './stop-on-signals.js';

/** The variables the command of `parley-server run` finds the server by. */
export const RUN_ENV = {
  baseUrl: 'PARLEY_BASE_URL',
  token: 'PARLEY_TOKEN',
  controlToken: 'PARLEY_CONTROL_TOKEN',
} as const;

/** Where {@link runWithCommand} runs: {@link CliContext}, and where stop signals come from. */
export interface RunContext extends Omit<CliContext, 'mode'> {
  /** Default `process`. */
  signals?: SignalSource;
}

/**
 * `parley-server run [server options] -- <command...>`: starts the server (or the checking proxy),
 * runs the command with `PARLEY_BASE_URL`, `PARLEY_TOKEN` (and `PARLEY_CONTROL_TOKEN` with
 * `--control`) in its environment, waits for it, stops the server (the report written, violations
 * counted) and resolves with the command's exit status: `128 + n` when a signal `n` ended it, `1`
 * when it succeeded but `--fail-on-violation` saw a violation, `127` when it could not start.
 *
 * SIGINT and SIGTERM are passed on to the command (a CI runner's stop, `kill` from a script, or
 * Ctrl+C, which a terminal also sends the command itself); a second one kills it (SIGKILL), so a
 * command that ignores signals cannot hold the job. The server's own lines go to stderr: the
 * command's stdout stays its own.
 */
export async function runWithCommand(
  argv: readonly string[],
  io: CliIo,
  context: RunContext = {},
): Promise<number> {
  const signals = context.signals ?? process;
  let stopSignal: StopSignal | undefined;
  let child: ChildProcess | undefined;
  const listeners = STOP_SIGNALS.map((signal) => {
    const listener = () => {
      if (child !== undefined && child.exitCode === null && child.signalCode === null) {
        child.kill(stopSignal === undefined ? signal : 'SIGKILL');
      }
      stopSignal ??= signal;
    };
    signals.on(signal, listener);
    return [signal, listener] as const;
  });
  try {
    const started = await runCli(argv, { stdout: io.stderr, stderr: io.stderr }, { ...context, mode: 'run' });
    if (started.running === undefined) return started.exitCode;
    const { running } = started;
    // A signal while the server started: stop it without running the command.
    const status =
      stopSignal === undefined
        ? await runChild(started.command ?? [], commandEnv(running, context.env ?? process.env), io, (c) => {
            child = c;
          })
        : signalStatus(stopSignal);
    return await stopServer(running, status, io);
  } finally {
    for (const [signal, listener] of listeners) signals.off(signal, listener);
  }
}

function commandEnv(running: RunningServer, env: Readonly<Record<string, string | undefined>>) {
  const { server } = running;
  return {
    ...env,
    [RUN_ENV.baseUrl]: running.url,
    [RUN_ENV.token]: server.users[0]?.token,
    ...(server.controlToken === undefined ? {} : { [RUN_ENV.controlToken]: server.controlToken }),
  };
}

/** Runs the command to its end: its exit status. */
function runChild(
  command: readonly string[],
  env: Record<string, string | undefined>,
  io: CliIo,
  started: (child: ChildProcess) => void,
): Promise<number> {
  const [file = '', ...args] = command;
  return new Promise((resolve) => {
    // No shell: the words are the command's own; Windows needs one to find `npm.cmd` and the like.
    const child = spawn(file, args, { stdio: 'inherit', env, shell: process.platform === 'win32' });
    started(child);
    child.once('error', (error) => {
      io.stderr(`parley-server run: cannot run ${file}: ${error.message}\n`);
      resolve(127);
    });
    child.once('exit', (code, signal) => resolve(code ?? signalStatus(signal)));
  });
}

/** Stops the server; the command's status, or the stop's failure when the command succeeded. */
async function stopServer(running: RunningServer, status: number, io: CliIo): Promise<number> {
  try {
    await running.close();
    io.stderr(`Parley reference server stopped (the command exited with ${status})\n`);
    return status;
  } catch (error) {
    const failure = error instanceof StopFailure ? error : undefined;
    io.stderr(`${failure?.message ?? `parley-server: error while stopping: ${(error as Error)?.message}`}\n`);
    return status !== 0 ? status : (failure?.exitCode ?? 1);
  }
}

/** The shell's status of a process a signal ended: 128 + its number. */
function signalStatus(signal: NodeJS.Signals | null): number {
  return 128 + (signal === null ? 0 : (constants.signals[signal] ?? 0));
}
