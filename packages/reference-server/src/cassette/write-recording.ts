import { cassetteFileExists, readCassetteFile, writeCassetteFile } from './cassette-file.js';
import type { Cassette } from './cassette-format.js';
import { describeMerge, mergeTestRecording, type TestOutcomes } from './recording-merge.js';

/**
 * Writes what a recording run recorded, and says what it wrote. A recording never costs one the
 * file holds: with `per: 'test'` only the tests that ran and passed are replaced; with `per:
 * 'file'` the file is replaced whole, unless a test failed while the file holds a recording.
 */
export async function writeRecording(
  file: string,
  fresh: Cassette,
  how: { per: 'file' | 'test'; outcomes: TestOutcomes; log: (line: string) => void },
): Promise<void> {
  const { per, outcomes, log } = how;
  const exists = cassetteFileExists(file);
  if (per === 'test') {
    // A file that cannot be read is not overwritten: its recordings could not be kept.
    const old = exists ? readCassetteFile(file) : undefined;
    const merge = mergeTestRecording(old, fresh, outcomes);
    if (merge.cassette !== undefined) await writeCassetteFile(file, merge.cassette);
    log(describeMerge(file, merge));
    return;
  }
  const failed = [...outcomes.failed].filter((test) => outcomes.ran.has(test)).length;
  const tests = (n: number) => `${n} test${n === 1 ? '' : 's'}`;
  const why =
    failed > 0
      ? `${tests(failed)} failed in this run`
      : outcomes.notRun.size > 0
        ? `${tests(outcomes.notRun.size)} of the file did not run (-t, .skip, .only), and per: 'file' records a file whole`
        : undefined;
  if (why !== undefined && exists) {
    log(
      `cassette ${file}: not written, ${why} (the file's recording is kept; ` +
        "with per: 'test' a run records the tests that ran and passed, and keeps the others)",
    );
    return;
  }
  await writeCassetteFile(file, fresh);
  const n = fresh.sessions.length;
  log(`cassette ${file}: recorded, ${n} session${n === 1 ? '' : 's'}`);
}
