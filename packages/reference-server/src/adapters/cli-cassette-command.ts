import { Command, InvalidArgumentError } from 'commander';
import {
  type CassetteLintResult,
  DEFAULT_LINT_MAX_BYTES,
  lintCassetteFile,
  lintExitCode,
} from '../cassette/cassette-lint.js';
import {
  type CassetteListing,
  formatCassetteListing,
  listCassetteFile,
} from '../cassette/cassette-listing.js';
import { parseExpiresIn } from './cli-cassette-options.js';
import type { CliIo } from './cli-command.js';
import { oneOf } from './cli-options.js';

const UNITS: Record<string, number> = {
  b: 1,
  kb: 1024,
  kib: 1024,
  mb: 1024 ** 2,
  mib: 1024 ** 2,
  gb: 1024 ** 3,
  gib: 1024 ** 3,
};

/** `--max-size 128MiB`: bytes, or a number with KiB, MiB or GiB (KB, MB and GB count the same). */
export function parseSize(value: string): number {
  const match = /^(\d+(?:\.\d+)?)\s*([a-z]*)$/i.exec(value.trim());
  const unit = UNITS[(match?.[2] || 'b').toLowerCase()];
  const bytes = match === null || unit === undefined ? Number.NaN : Math.floor(Number(match[1]) * unit);
  if (!(bytes > 0)) throw new InvalidArgumentError('must be a size > 0, e.g. 64MiB, 500KiB or 1048576.');
  return bytes;
}

const EXIT_CODES = `
Exit codes (for CI): 0 nothing wrong (warnings allowed); 1 a cassette has an error (invalid, a
token-like string, a test recorded twice, a session without its test, expired, over --max-size);
2 a bad flag, or a file that cannot be read.`;

/**
 * `parley-server cassette lint|list FILE...`: checks cassette files offline, or lists what they
 * hold. Files are resolved with `at`. Resolves the exit code.
 */
export async function runCassetteCommand(
  argv: readonly string[],
  io: CliIo,
  at: (file: string) => string,
): Promise<number> {
  let exitCode = 0;
  const program = new Command('parley-server cassette')
    .description('check cassette files offline, or list what they hold')
    .exitOverride()
    .configureOutput({ writeOut: io.stdout, writeErr: io.stderr });
  program
    .command('lint')
    .description(
      'check cassette files: format and protocol (with field paths), token-like strings, tests recorded twice, sessions without a test, age, size',
    )
    .argument('<files...>', 'cassette files')
    .option('--json', 'print the results as JSON')
    .option('--expires-in <duration>', 'a cassette older than this (e.g. 30d) is an error', parseExpiresIn)
    .option(
      '--per <per>',
      "test: every session must name its test (as recorded with per: 'test')",
      oneOf('file', 'test'),
    )
    .option(
      '--max-size <size>',
      `files larger than this are not read (default ${DEFAULT_LINT_MAX_BYTES / 1024 / 1024}MiB)`,
      parseSize,
    )
    .addHelpText('after', EXIT_CODES)
    .action(
      (
        files: string[],
        opts: { json?: boolean; expiresIn?: string; per?: 'file' | 'test'; maxSize?: number },
      ) => {
        const results = files.map((file) => ({
          ...lintCassetteFile(at(file), {
            ...(opts.expiresIn === undefined ? {} : { expiresIn: opts.expiresIn }),
            ...(opts.per === undefined ? {} : { per: opts.per }),
            ...(opts.maxSize === undefined ? {} : { maxBytes: opts.maxSize }),
          }),
          file,
        }));
        const unreadable = results.some((r) => r.findings.some((f) => f.rule === 'unreadable'));
        exitCode = unreadable ? 2 : lintExitCode(results);
        if (opts.json === true) io.stdout(`${JSON.stringify({ exitCode, files: results }, null, 2)}\n`);
        else io.stdout(lintText(results));
      },
    );
  program
    .command('list')
    .description('list what cassette files hold: tests, sessions, turns, when recorded')
    .argument('<files...>', 'cassette files')
    .option('--json', 'print the listings as JSON')
    .option('--max-size <size>', 'files larger than this are not read', parseSize)
    .action((files: string[], opts: { json?: boolean; maxSize?: number }) => {
      const listings: CassetteListing[] = [];
      for (const file of files) {
        try {
          listings.push({ ...listCassetteFile(at(file), opts.maxSize), file });
        } catch (error) {
          io.stderr(`parley-server cassette list: ${(error as Error).message}\n`);
          exitCode = Math.max(exitCode, /ENOENT|EACCES|EISDIR/.test((error as Error).message) ? 2 : 1);
        }
      }
      if (opts.json === true) io.stdout(`${JSON.stringify({ files: listings }, null, 2)}\n`);
      else io.stdout(listings.map(formatCassetteListing).join(''));
    });
  try {
    await program.parseAsync([...argv], { from: 'user' });
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    if (typeof code !== 'string' || !code.startsWith('commander.')) throw error;
    // Help asked for exits 0; help shown for want of a subcommand (exit code 1 in commander) is a usage error.
    return (error as { exitCode?: unknown }).exitCode === 0 ? 0 : 2;
  }
  return exitCode;
}

function lintText(results: readonly CassetteLintResult[]): string {
  const lines: string[] = [];
  for (const r of results) {
    const errors = r.findings.filter((f) => f.severity === 'error').length;
    const warnings = r.findings.length - errors;
    const held = r.valid
      ? `, ${r.sessions} sessions, ${r.turns} turns, ${r.recordedAt === undefined ? 'no recordedAt' : `recorded ${r.recordedAt}`}, expiry ${r.expiry}`
      : '';
    const verdict = errors === 0 && warnings === 0 ? 'ok' : `${errors} errors, ${warnings} warnings`;
    lines.push(`${r.file}: ${verdict} (${r.bytes} bytes${held})`);
    for (const f of r.findings)
      lines.push(`  ${f.severity} ${f.rule}${f.path === undefined ? '' : ` at ${f.path}`}: ${f.message}`);
  }
  const failed = results.filter((r) => r.findings.some((f) => f.severity === 'error')).length;
  lines.push(`${results.length} files linted, ${failed} with errors`);
  return `${lines.join('\n')}\n`;
}
