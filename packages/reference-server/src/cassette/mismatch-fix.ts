import { CASSETTE_MODE_ENV } from './cassette-mode.js';

/** Why a model call found no recording: the cassette lacks it, or holds another input there. */
export type MismatchKind = 'lacks' | 'differs';

/** Where a replayed cassette came from: its file (when it has one) and the deployment it recorded. */
export interface RecordedFrom {
  /** The cassette's file path; undefined for a cassette given in code. */
  file?: string | undefined;
  /** The origin it was recorded from (the cassette's `upstream`), when it says. */
  upstream?: string | undefined;
}

/**
 * What to do about a replay mismatch, ending its message: a session or turn the cassette lacks
 * can be recorded alone (`record-missing`); an input that differs from the recording needs the
 * test recorded again. `rerecord` is the command that does so, when the vitest helper knows it.
 * Recording needs the deployment: the fix names the one the cassette was recorded from, in the
 * CLI's command (`--upstream`) or beside the helper's (its `upstream: { url }`).
 */
export function mismatchFix(
  kind: MismatchKind,
  rerecord: { command: string; oneTest: boolean } | undefined,
  from: RecordedFrom = {},
): string {
  const upstream = from.upstream ?? '<url>';
  const cli = `parley-server --record ${from.file === undefined ? '<file>' : shellQuote(from.file)} --upstream ${upstream}`;
  const through =
    from.upstream === undefined
      ? 'upstream: { url } set'
      : `upstream: { url: '${from.upstream}' } (where it was recorded from)`;
  const again =
    rerecord === undefined
      ? `record the cassette again (${CASSETTE_MODE_ENV}=record with ${through}, or ${cli})`
      : `record ${rerecord.oneTest ? 'this test' : "the file's cassette"} again with ${through}: ${rerecord.command}`;
  if (kind === 'differs') return `. The test sends something else than when it was recorded: ${again}`;
  return (
    `. Record what the cassette lacks with ${CASSETTE_MODE_ENV}=record-missing (it needs ${through}), ` +
    `or ${again}`
  );
}

/** `'it'` in a shell: single quotes, each `'` inside written `'\''`. */
function shellQuote(text: string): string {
  return `'${text.replaceAll("'", "'\\''")}'`;
}

/**
 * The command that records a test file again, or (with `testName`, the name vitest matches `-t`
 * against) that one test of it: `PARLEY_CASSETTE_MODE=record npx vitest run test/a.test.ts -t '^weather Oslo$'`.
 */
export function rerecordCommand(file: string, testName?: string): string {
  const command = `${CASSETTE_MODE_ENV}=record npx vitest run ${shellQuote(file)}`;
  if (testName === undefined) return command;
  const pattern = `^${testName.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`;
  return `${command} -t ${shellQuote(pattern)}`;
}
