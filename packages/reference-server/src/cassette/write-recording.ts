import { cassetteFileExists } from './cassette-file.js';
import type { Cassette } from './cassette-format.js';
import {
  describeMerge,
  mergeTestRecording,
  type RecordingMerge,
  type TestOutcomes,
} from './recording-merge.js';
import { updateCassetteFile, writeCassetteFile } from './write-cassette-file.js';

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
  if (per === 'test') {
    // Read and written under the cassette's lock: another process recording other tests of the
    // same cassette at once keeps its tests, and this one keeps its own. A file that cannot be read
    // is not overwritten: its recordings could not be kept.
    let merge: RecordingMerge | undefined;
    await updateCassetteFile(file, (old) => {
      merge = mergeTestRecording(old, fresh, outcomes);
      return merge.cassette;
    });
    if (merge !== undefined) log(describeMerge(file, merge));
    return;
  }
  const exists = cassetteFileExists(file);
  const failed = [...outcomes.failed].filter((test) => outcomes.ran.has(test)).length;
  const skipped = outcomes.skipped?.size ?? 0;
  const unfinished = outcomes.unfinished?.size ?? 0;
  const tests = (n: number) => `${n} test${n === 1 ? '' : 's'}`;
  const why =
    failed > 0
      ? `${tests(failed)} failed in this run`
      : unfinished > 0
        ? `${tests(unfinished)} never ended (the runner stopped first)`
        : skipped > 0
          ? `${tests(skipped)} skipped in this run, and per: 'file' records a file whole`
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
