import { isAbsolute, resolve } from 'node:path';
import process from 'node:process';
import { runCassetteCommand } from './cli-cassette-command.js';
import type { CliEnv, CliIo } from './cli-command.js';

/** The subcommands that run once and exit, rather than start a server. */
const TOOLS = ['cassette', 'drift'];

/**
 * `parley-server cassette ...` and `parley-server drift ...`: the exit code once the subcommand
 * ran, or undefined when `argv` names none of them (the server starts as usual).
 */
export async function runToolCommand(
  argv: readonly string[],
  io: CliIo,
  context: { env?: CliEnv; cwd?: string },
): Promise<number | undefined> {
  const args = argv[0] === '--' ? argv.slice(1) : argv;
  const [name, ...rest] = args;
  if (name === undefined || !TOOLS.includes(name)) return undefined;
  const env = context.env ?? process.env;
  const base = env.INIT_CWD?.trim() ? env.INIT_CWD : (context.cwd ?? process.cwd());
  const at = (file: string) => (isAbsolute(file) ? file : resolve(base, file));
  if (name === 'cassette') return runCassetteCommand(rest, io, at);
  const { runDriftCommand } = await import('./cli-drift.js');
  return runDriftCommand(rest, io, { at, env });
}
