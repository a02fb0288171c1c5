/**
 * The request header that scopes a request to one test on a shared reference server: its script,
 * faults, journal, sessions and cassette key (docs/protocol.md, "Test scopes"). A reference-server
 * extension: a real deployment ignores it, and the checking proxy never forwards it.
 */
export const TEST_ID_HEADER = 'x-parley-test-id';

/** The longest test id accepted: a test's full name (file, describe blocks, title) fits with room to spare. */
export const MAX_TEST_ID_LENGTH = 512;

// A tab is allowed (some runners join title parts with it); other control characters are not.
// Header values reach us as Latin-1 code units: DEL and C1 controls count as control characters too.
// biome-ignore lint/suspicious/noControlCharactersInRegex: the control characters are what it looks for
const CONTROL_CHARACTER = /[\u0000-\u0008\u000a-\u001f\u007f-\u009f]/;

/**
 * What is wrong with a test id, as the end of a sentence (`the x-parley-test-id header ...`), or
 * undefined when it will do. Headers cannot carry most control characters at all; this also
 * refuses those a client library lets through, an empty value and one too long to be a name.
 */
export function testIdProblem(value: string): string | undefined {
  if (value.trim() === '') return 'is empty: leave the header out for the default scope';
  if (value.length > MAX_TEST_ID_LENGTH) {
    return `is ${value.length} characters long, over the ${MAX_TEST_ID_LENGTH} accepted: send a shorter name (or a hash of it)`;
  }
  if (CONTROL_CHARACTER.test(value)) return 'holds a control character';
  return undefined;
}

const ATTEMPT_SUFFIX = /(?: %repeat=\d+)?(?: %retry=\d+)?(?: %run=\d+)?$/;

/**
 * A test id without the run its runner helper appends (` %repeat=N`, ` %retry=N`, ` %run=N`: a
 * name's own `%` is always encoded, so these end only a run's id): what the runs of one test share,
 * the key of its cassette recordings.
 */
export function testIdWithoutAttempt(testId: string): string {
  return testId.replace(ATTEMPT_SUFFIX, '');
}
