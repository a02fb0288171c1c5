import process from 'node:process';
import type { CliIo } from './cli-command.js';
import { type CliContext, runCli } from './cli-main.js';
import { SIGNAL_DEBOUNCE_MS } from './cli-run-debounce.js';
import { type CommandGroup, signalStatus, spawnCommandGroup } from './cli-run-group.js';
import { relayStopSignals } from './cli-run-signals.js';
import type { RunningServer } from './start-server.js';
import { StopFailure } from './stop-failure.js';
import type { SignalSource, StopSignal } from './stop-on-signals.js';

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
  /** The clock the signal debounce window is measured on. Default `Date.now`. */
  now?: () => number;
}

/**
 * `parley-server run [server options] -- <command...>`: starts the server (or the checking proxy),
 * runs the command with `PARLEY_BASE_URL`, `PARLEY_TOKEN` (and `PARLEY_CONTROL_TOKEN` with
 * `--control`) in its environment, waits for it, stops the server (the report written, violations
 * counted) and resolves with an exit status in the shell's convention: `130` after SIGINT and `143`
 * after SIGTERM (whatever the interrupted command returned), else the command's own status
 * (`128 + n` when a signal `n` ended it), `1` when it succeeded but `--fail-on-violation` saw a
 * violation, `127` when it could not start.
 *
 * The command runs in a process group of its own (cli-run-group.ts): SIGINT and SIGTERM (Ctrl+C, a
 * CI runner's stop, `kill` from a script) reach the server, which passes the first on to the whole
 * group; the same signal delivered twice within {@link SIGNAL_DEBOUNCE_MS} counts once, a later one
 * kills the group (SIGKILL), so a command that ignores signals cannot hold the job. Nothing the
 * command started outlives the run. The server's own lines go to stderr: the command's stdout stays
 * its own.
 */
export async function runWithCommand(
  argv: readonly string[],
  io: CliIo,
  context: RunContext = {},
): Promise<number> {
  let group: CommandGroup | undefined;
  const relay = relayStopSignals(
    context.signals ?? process,
    { stop: (signal) => group?.signal(signal), kill: () => group?.signal('SIGKILL') },
    context.now,
  );
  try {
    const started = await runCli(argv, { stdout: io.stderr, stderr: io.stderr }, { ...context, mode: 'run' });
    if (started.running === undefined) return started.exitCode;
    const { running } = started;
    // A signal while the server started: stop it without running the command.
    let status: number | undefined;
    if (relay.first === undefined) {
      group = spawnCommandGroup(started.command ?? [], commandEnv(running, context.env ?? process.env), io);
      status = await group.ended;
    }
    const stopped = await stopServer(running, status, relay.first, io);
    return relay.first === undefined ? stopped : signalStatus(relay.first);
  } finally {
    relay.dispose();
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

/**
 * Stops the server and says why: the command's status, or the stop's failure when the command
 * succeeded (the caller answers a stop signal with its own status).
 */
async function stopServer(
  running: RunningServer,
  status: number | undefined,
  signal: StopSignal | undefined,
  io: CliIo,
): Promise<number> {
  const exited = status === undefined ? 'before the command started' : `the command exited with ${status}`;
  try {
    await running.close();
    io.stderr(`Parley reference server stopped (${signal === undefined ? '' : `${signal}, `}${exited})\n`);
    return status ?? 0;
  } catch (error) {
    const failure = error instanceof StopFailure ? error : undefined;
    io.stderr(`${failure?.message ?? `parley-server: error while stopping: ${(error as Error)?.message}`}\n`);
    return status !== undefined && status !== 0 ? status : (failure?.exitCode ?? 1);
  }
}
