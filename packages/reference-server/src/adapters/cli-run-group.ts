import { type ChildProcess, spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { constants } from 'node:os';
import process from 'node:process';
import { setTimeout as sleep } from 'node:timers/promises';
import type { CliIo } from './cli-command.js';

/** How long processes the command left behind get to end after SIGTERM before SIGKILL. */
export const LEFTOVER_GRACE_MS = 2000;
/** How often {@link spawnCommandGroup} looks whether the command's group is empty. */
const LEFTOVER_CHECK_MS = 20;

/** The command of `parley-server run` and every process it starts. */
export interface CommandGroup {
  /** Sends `signal` to every process of the command's group (to the command alone on Windows). */
  signal(signal: NodeJS.Signals): void;
  /**
   * The command's exit status (`128 + n` when signal `n` ended it, `127` when it could not start),
   * once it exited and nothing it started is left.
   */
  readonly ended: Promise<number>;
}

/**
 * Runs the command in a process group (and session) of its own, so that a signal reaches every
 * process of it, a shell's children too, and only through `parley-server run`: the terminal's Ctrl+C
 * reaches the server, which passes it on once. Once the command exits, what it left running gets
 * SIGTERM, and SIGKILL after {@link LEFTOVER_GRACE_MS}: nothing outlives the run. The command
 * keeps the terminal as its stdin and output (watch modes read keys as before); it has no
 * controlling terminal, so a program that opens `/dev/tty` itself finds none. Windows has no
 * process groups: there the command alone is signalled.
 */
export function spawnCommandGroup(
  command: readonly string[],
  env: Record<string, string | undefined>,
  io: CliIo,
): CommandGroup {
  const [file = '', ...args] = command;
  const windows = process.platform === 'win32';
  // No shell: the words are the command's own; Windows needs one to find `npm.cmd` and the like.
  let child: ChildProcess;
  try {
    child = spawn(file, args, { stdio: 'inherit', env, shell: windows, detached: !windows });
  } catch (error) {
    // Refused before any process was made (an empty command word, as `run -- "$UNSET"` gives).
    io.stderr(`parley-server run: cannot run ${JSON.stringify(file)}: ${(error as Error).message}\n`);
    return { signal: () => {}, ended: Promise.resolve(127) };
  }
  const group = (signal: NodeJS.Signals | 0): boolean => {
    if (child.pid === undefined) return false;
    try {
      if (windows) return child.kill(signal === 0 ? undefined : signal);
      process.kill(-child.pid, signal);
      return signal !== 0 || hasLiveMember(child.pid);
    } catch {
      return false; // ESRCH: the group is empty
    }
  };
  const ended = new Promise<number>((resolve) => {
    child.once('error', (error) => {
      io.stderr(`parley-server run: cannot run ${file}: ${error.message}\n`);
      resolve(127);
    });
    child.once('exit', (code, signal) => {
      const status = code ?? signalStatus(signal);
      if (windows) resolve(status);
      else void endLeftovers(group).then(() => resolve(status));
    });
  });
  return { signal: (signal) => void group(signal), ended };
}

/** SIGTERM to what is left of the group, SIGKILL after the grace period; resolves once it is empty. */
async function endLeftovers(group: (signal: NodeJS.Signals | 0) => boolean): Promise<void> {
  if (!group('SIGTERM')) return;
  for (let waited = 0; waited < LEFTOVER_GRACE_MS; waited += LEFTOVER_CHECK_MS) {
    await sleep(LEFTOVER_CHECK_MS);
    if (!group(0)) return;
  }
  group('SIGKILL');
}

/**
 * Whether a process of group `pgid` is still running, not merely a zombie waiting to be reaped
 * (where orphans go to an init that does not reap, as in some containers, the group never
 * empties). Read from /proc on Linux; elsewhere the group counts as running.
 */
function hasLiveMember(pgid: number): boolean {
  if (process.platform !== 'linux') return true;
  let pids: string[];
  try {
    pids = readdirSync('/proc').filter((name) => /^\d+$/.test(name));
  } catch {
    return true;
  }
  return pids.some((pid) => {
    try {
      // "pid (comm) state ppid pgrp ...": comm may hold spaces and parentheses.
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      const [state, , pgrp] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      return Number(pgrp) === pgid && state !== 'Z' && state !== 'X';
    } catch {
      return false; // ended while we looked
    }
  });
}

/** The shell's status of a process a signal ended: 128 + its number. */
export function signalStatus(signal: NodeJS.Signals | null): number {
  return 128 + (signal === null ? 0 : (constants.signals[signal] ?? 0));
}
