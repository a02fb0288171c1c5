import type { CliEnv, CliIo } from './cli-command.js';
export async function runDriftCommand(
  _argv: readonly string[],
  _io: CliIo,
  _context: { at: (file: string) => string; env: CliEnv },
): Promise<number> {
  return 2;
}
