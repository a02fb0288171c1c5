import { readFileSync, statSync } from 'node:fs';
import { checkOptions } from '../utils/check-options.js';
import { expiryReason, parseDuration } from './cassette-expiry.js';
import {
  CASSETTE_VERSIONS_READ,
  type Cassette,
  InvalidCassetteError,
  parseCassetteText,
} from './cassette-format.js';
import { cassetteFieldIssues, stopReasonIssues } from './cassette-lint-issues.js';
import { tokenLikeStrings } from './cassette-secrets.js';

/** Files larger than this are not read by default: a clear answer instead of a process out of memory. */
export const DEFAULT_LINT_MAX_BYTES = 64 * 1024 * 1024;
/** Larger files get a warning: slow to replay, hard to review in a pull request. */
export const LINT_WARN_BYTES = 5 * 1024 * 1024;

/** What {@link lintCassetteFile} checks besides the format. */
export interface CassetteLintOptions {
  /** Files larger than this many bytes are not read, and fail. Default 64 MiB. */
  maxBytes?: number;
  /** `'30d'`: a cassette recorded longer ago (or without `recordedAt`) is expired, an error. Default: age only reported. */
  expiresIn?: string;
  /** `'test'`: every session must name its test. Default: only when some session of the file does. */
  per?: 'file' | 'test';
  /** Unix ms to read ages at. Default `Date.now()`. */
  now?: number;
}

/** The kinds of finding, each with its severity (errors fail the lint). */
export type LintRule =
  | 'unreadable'
  | 'too_large'
  | 'invalid'
  | 'stop_reason'
  | 'token_like'
  | 'test_recorded_twice'
  | 'missing_test'
  | 'expired'
  | 'large'
  | 'unknown_age';

const WARNINGS: ReadonlySet<LintRule> = new Set(['large', 'unknown_age']);

/** One thing a lint found. */
export interface LintFinding {
  rule: LintRule;
  severity: 'error' | 'warning';
  /** The field at fault, as a dotted path (`sessions.0.turns.1.events.5.event...`), when there is one. */
  path?: string;
  message: string;
}

/** The lint of one file. */
export interface CassetteLintResult {
  file: string;
  /** The file's size. */
  bytes: number;
  /** How much of it was read: 0 for a file over `maxBytes`. */
  bytesRead: number;
  /** Whether it loads as a cassette (format and protocol). */
  valid: boolean;
  sessions?: number;
  turns?: number;
  recordedAt?: string;
  /** `fresh` or `expired` against `expiresIn`; `unknown` without `recordedAt`; `unchecked` without `expiresIn`. */
  expiry: 'fresh' | 'expired' | 'unknown' | 'unchecked';
  findings: LintFinding[];
}

/**
 * Lints one cassette file offline: its size first (a file over `maxBytes` is not read), then the
 * format and protocol as a replay would load it (every field at fault, each path once), a
 * `stopReason` that disagrees with its turn (a hand edit), token-like strings
 * left in it, tests recorded twice (a test's sessions in two places), sessions without a test under
 * `per: 'test'`, and its age.
 */
export function lintCassetteFile(file: string, options: CassetteLintOptions = {}): CassetteLintResult {
  checkOptions(
    options,
    { maxBytes: 'number', expiresIn: 'string', per: 'string', now: 'number' },
    'lintCassetteFile()',
  );
  const maxBytes = options.maxBytes ?? DEFAULT_LINT_MAX_BYTES;
  const findings: LintFinding[] = [];
  const add = (rule: LintRule, message: string, path?: string) =>
    findings.push({
      rule,
      severity: WARNINGS.has(rule) ? 'warning' : 'error',
      ...(path === undefined ? {} : { path }),
      message,
    });
  const result = (bytes: number, bytesRead: number, extra: Partial<CassetteLintResult> = {}) => ({
    file,
    bytes,
    bytesRead,
    valid: false,
    expiry: 'unchecked' as const,
    findings,
    ...extra,
  });
  let bytes: number;
  try {
    const stat = statSync(file);
    if (!stat.isFile()) throw new Error('not a file');
    bytes = stat.size;
  } catch (error) {
    add('unreadable', `cannot be read: ${(error as Error).message}`);
    return result(0, 0);
  }
  if (bytes > maxBytes) {
    add(
      'too_large',
      `is ${mib(bytes)}, over the lint limit of ${mib(maxBytes)}: not read. A cassette this large replays ` +
        `slowly and cannot be reviewed; split it (a cassette per test file, or per: 'test'), or raise the ` +
        'limit (--max-size; memory grows with the file)',
    );
    return result(bytes, 0);
  }
  const text = readFileSync(file, 'utf8');
  if (bytes > LINT_WARN_BYTES) add('large', `is ${mib(bytes)}: slow to replay and hard to review`);
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    add('invalid', `not valid JSON: ${(error as Error).message}`);
    return result(bytes, bytes);
  }
  for (const found of tokenLikeStrings(raw)) {
    add(
      'token_like',
      `looks like ${found.kind}: ${found.masked}; redact it (redact.paths or redact.values)`,
      found.path,
    );
  }
  let cassette: Cassette;
  try {
    cassette = parseCassetteText(text, file);
  } catch (error) {
    if (!(error instanceof InvalidCassetteError)) throw error;
    // Every field at fault, each path once; a load's own error for a version it does not read (the
    // fields of another version are not this one's).
    const version = (raw as { version?: unknown } | null)?.version;
    const otherVersion = version !== undefined && !CASSETTE_VERSIONS_READ.includes(version as number);
    const fields = otherVersion ? [] : cassetteFieldIssues(raw);
    if (fields.length === 0) for (const issue of error.issues) add('invalid', issue);
    for (const { path, message } of fields) add('invalid', message, path);
    return result(bytes, bytes);
  }
  for (const { path, message } of stopReasonIssues(cassette)) add('stop_reason', message, path);
  testChecks(cassette, options.per, add);
  const expiry = expiryOf(cassette, file, options, add);
  const turns = cassette.sessions.reduce((sum, session) => sum + session.turns.length, 0);
  return result(bytes, bytes, {
    valid: true,
    sessions: cassette.sessions.length,
    turns,
    ...(cassette.recordedAt === undefined ? {} : { recordedAt: cassette.recordedAt }),
    expiry,
  });
}

/** Tests recorded twice (a test's sessions in two separate runs) and sessions without a test. */
function testChecks(
  cassette: Cassette,
  per: 'file' | 'test' | undefined,
  add: (rule: LintRule, message: string, path?: string) => void,
): void {
  const tests = cassette.sessions.map((session) => session.test);
  const perTest = per === 'test' || tests.some((test) => test !== undefined);
  const runs = new Map<string, number[]>();
  tests.forEach((test, i) => {
    if (test === undefined) {
      if (perTest) {
        add(
          'missing_test',
          `session ${i + 1} names no test, in a cassette recorded per: 'test' (it can never be replayed)`,
          `sessions.${i}`,
        );
      }
      return;
    }
    if (tests[i - 1] !== test) runs.set(test, [...(runs.get(test) ?? []), i + 1]);
  });
  for (const [test, starts] of runs) {
    if (starts.length < 2) continue;
    add(
      'test_recorded_twice',
      `the test "${test}" is recorded twice (its sessions start at ${starts.map((s) => `session ${s}`).join(' and ')}): ` +
        'only the first recording replays; record the test again in one place',
      `sessions.${(starts[1] as number) - 1}.test`,
    );
  }
}

function expiryOf(
  cassette: Cassette,
  file: string,
  options: CassetteLintOptions,
  add: (rule: LintRule, message: string, path?: string) => void,
): CassetteLintResult['expiry'] {
  if (options.expiresIn === undefined) {
    if (cassette.recordedAt !== undefined) return 'unchecked';
    add('unknown_age', 'has no recordedAt (recorded before Parley 0.1.0): its age is unknown', 'recordedAt');
    return 'unknown';
  }
  parseDuration(options.expiresIn);
  const reason = expiryReason(cassette, file, { expiresIn: options.expiresIn }, options.now ?? Date.now());
  if (reason === undefined) return 'fresh';
  add('expired', reason, 'recordedAt');
  return cassette.recordedAt === undefined ? 'unknown' : 'expired';
}

/** 0 when no file has an error (warnings pass), 1 otherwise. */
export function lintExitCode(results: readonly CassetteLintResult[]): 0 | 1 {
  return results.some((r) => r.findings.some((f) => f.severity === 'error')) ? 1 : 0;
}

function mib(bytes: number): string {
  return `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
}
