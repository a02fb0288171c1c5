import { accessSync, constants, statSync } from 'node:fs';
import { dirname } from 'node:path';
import type { RecordConfig, ReplayConfig } from '../cassette/cassette-config.js';
import { expiryVerdict } from '../cassette/cassette-expiry.js';
import { cassetteFileExists, readCassetteFile } from '../cassette/cassette-file.js';
import { maskUrlPasswords } from '../utils/url-password.js';
import type { CliIo } from './cli-command.js';
import type { CliOptions } from './cli-options.js';

/** What the cassette flags make of the server: its `replay` or `record`, and the lines printed at start. */
export type CliCassette =
  | { exitCode: number }
  | { replay?: ReplayConfig; record?: RecordConfig; lines: string[] };

/**
 * Reads the cassette flags (--replay, --record-missing, --record and their settings): a clash, a
 * missing --upstream, an unreadable cassette or an expired one under `--cassette-expiry error`
 * prints a message and gives exit code 2. An expired cassette under `record` is recorded again.
 */
export function cliCassette(
  opts: CliOptions,
  at: (file: string) => string,
  io: CliIo,
  now: number,
): CliCassette {
  const fail = (message: string): CliCassette => {
    io.stderr(`parley-server: ${message}\n`);
    return { exitCode: 2 };
  };
  if (opts.replay !== undefined && opts.script !== undefined) {
    return fail('give either --script or --replay: both say what the model answers');
  }
  if (opts.replay !== undefined && opts.record !== undefined) {
    return fail('give either --replay or --record: a replay has no upstream to record');
  }
  if (
    opts.recordMissing !== undefined &&
    [opts.replay, opts.record, opts.script].some((o) => o !== undefined)
  ) {
    return fail(
      'give --record-missing alone: it replays the cassette and records what it lacks (no --replay, --record or --script)',
    );
  }
  const upstream = opts.upstream;
  if (opts.recordMissing !== undefined && upstream === undefined) {
    return fail(
      `--record-missing ${opts.recordMissing} needs --upstream <url> (PARLEY_UPSTREAM_URL): the deployment answers what the cassette lacks`,
    );
  }
  if (opts.replayOnMismatch === 'upstream' && upstream === undefined) {
    return fail('--replay-on-mismatch upstream needs --upstream <url> (PARLEY_UPSTREAM_URL)');
  }
  if (
    opts.replay !== undefined &&
    upstream !== undefined &&
    opts.replayOnMismatch !== 'upstream' &&
    opts.cassetteExpiry !== 'record'
  ) {
    return fail(
      `--replay ${opts.replay} and --upstream ${maskUrlPasswords(upstream)} both answer /v1: pass one of them ` +
        '(or --replay-on-mismatch upstream, for the calls the cassette does not hold)',
    );
  }
  const given = opts.replay ?? opts.recordMissing;
  if (opts.replaySpeed !== undefined && given === undefined) {
    return fail(`--replay-speed ${opts.replaySpeed} needs --replay <file> (or --record-missing)`);
  }
  if (opts.replaySpeed !== undefined && opts.replayPace === 'fast') {
    return fail(
      `--replay-speed ${opts.replaySpeed} plays the recorded cadence faster: not with --replay-pace fast`,
    );
  }
  if (given !== undefined) {
    const flag = opts.replay === undefined ? '--record-missing' : '--replay';
    const file = at(given);
    // Written when the server stops: a folder it cannot write is said now, not after the run.
    const problem = opts.recordMissing === undefined ? undefined : unwritable(file);
    if (problem !== undefined) return fail(`--record-missing ${given}: ${problem}`);
    let cassette: ReturnType<typeof readCassetteFile> | undefined;
    try {
      cassette =
        opts.recordMissing !== undefined && !cassetteFileExists(file) ? undefined : readCassetteFile(file);
      const expiry = {
        ...(opts.cassetteExpiresIn === undefined ? {} : { expiresIn: opts.cassetteExpiresIn }),
        ...(opts.cassetteExpiry === undefined ? {} : { expiryStrategy: opts.cassetteExpiry }),
      };
      const warn = (line: string) => io.stderr(`${line}\n`);
      if (
        cassette !== undefined &&
        opts.cassetteExpiresIn !== undefined &&
        expiryVerdict(cassette, given, expiry, now, warn) === 'record'
      ) {
        if (upstream === undefined)
          return fail(
            `${given} expired, and --cassette-expiry record needs --upstream <url> to record it again`,
          );
        return { record: { file }, lines: [`${given} expired: recording it again to ${given}`] };
      }
    } catch (error) {
      return fail(`${flag} ${given}: ${(error as Error).message}`);
    }
    const replay: ReplayConfig = {
      cassette: opts.recordMissing !== undefined ? file : (cassette ?? file),
      name: given,
      onMismatch: opts.replayOnMismatch ?? 'error',
      ...(opts.replaySpeed === undefined
        ? { pace: opts.replayPace ?? 'fast' }
        : { pace: 'recorded', speed: opts.replaySpeed }),
      match: { sessions: opts.replayMatch ?? 'order' },
      ...(opts.recordMissing === undefined
        ? {}
        : { recordMissing: { redact: { paths: opts.recordRedact ?? [] } } }),
    };
    const line =
      opts.recordMissing === undefined
        ? `replaying ${given}`
        : `replaying ${given}, recording what it lacks from ${maskUrlPasswords(upstream ?? '')} (written when the server stops)`;
    return { replay, lines: [line] };
  }
  if (opts.record !== undefined) {
    // The recorder hears what passes through the checking proxy: --record needs --upstream.
    if (upstream === undefined) {
      return fail(
        `--record ${opts.record} needs --upstream <url> (PARLEY_UPSTREAM_URL): recording writes what passes through the checking proxy`,
      );
    }
    const problem = unwritable(at(opts.record));
    if (problem !== undefined) return fail(`--record ${opts.record}: ${problem}`);
    return {
      record: { file: at(opts.record), redact: { paths: opts.recordRedact ?? [] } },
      lines: [`recording to ${opts.record}`],
    };
  }
  return { lines: [] };
}

/**
 * Why the cassette `file` could not be written when the server stops (its folder missing or not
 * writable for this user, a read-only mount), or undefined.
 */
function unwritable(file: string): string | undefined {
  const folder = dirname(file);
  try {
    if (!statSync(folder).isDirectory()) return `${folder} is not a folder`;
  } catch {
    return `the folder ${folder} does not exist`;
  }
  let target = folder;
  try {
    if (statSync(file).isDirectory()) return `${file} is a folder; give a file name (.json)`;
    target = file;
  } catch {}
  try {
    accessSync(target, constants.W_OK);
  } catch (error) {
    const readOnly = (error as NodeJS.ErrnoException).code === 'EROFS' ? ' (a read-only file system)' : '';
    return `cannot be written when the server stops: no write permission for ${target}${readOnly}`;
  }
  return undefined;
}
