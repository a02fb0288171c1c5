import { createHash } from 'node:crypto';
import { MAX_TEST_ID_LENGTH } from '../utils/test-id.js';

/**
 * Which run of a test this is, beyond its first: Playwright's `--repeat-each` index and retry, or
 * (`run`) the n-th test of the same name in one process (a retry of vitest or Jest, vitest's
 * `repeats`, two tests with one title). Each gets an id of its own, so two runs never share a scope.
 */
export interface TestAttempt {
  repeat?: number;
  retry?: number;
  run?: number;
}

const HASH_MARKER = '%#';
const SHA1_HEX_LENGTH = 40;
// The name's part of an id, the same for every run of a test (whose marks follow it): room is kept
// for ` %repeat=N %retry=N %run=N` with numbers of up to 16 digits.
const NAME_ROOM = MAX_TEST_ID_LENGTH - 72;

/**
 * A test's id as the `x-parley-test-id` header carries it: its name with `%`, every character past
 * printable ASCII and a space or tab at either end percent-encoded (UTF-8; a lone surrogate as
 * `%uD800`), so that two names never give one value (`café` is `caf%C3%A9`, `caf%C3%A9` is
 * `caf%25C3%25A9`); then ` %repeat=N`, ` %retry=N` and ` %run=N` for a run beyond the first. A name
 * past 440 characters (the server takes 512) keeps its start, then `%#` and a SHA-1 of the whole encoded name. The
 * server treats it as an opaque key; the cassette keys the recording by the name alone
 * (`testIdWithoutAttempt`), so a retry replays what its test recorded.
 */
export function testIdHeaderValue(name: string, attempt: TestAttempt = {}): string {
  const suffix = attemptSuffix(attempt);
  const encoded = encodeName(name);
  if (encoded.length <= NAME_ROOM) return encoded + suffix;
  const hash = createHash('sha1').update(encoded).digest('hex');
  return `${encoded.slice(0, NAME_ROOM - HASH_MARKER.length - SHA1_HEX_LENGTH)}${HASH_MARKER}${hash}${suffix}`;
}

function attemptSuffix({ repeat = 0, retry = 0, run = 1 }: TestAttempt): string {
  return `${repeat > 0 ? ` %repeat=${repeat}` : ''}${retry > 0 ? ` %retry=${retry}` : ''}${run > 1 ? ` %run=${run}` : ''}`;
}

function encodeName(name: string): string {
  // A header value loses the spaces and tabs at its ends; an empty one is no test id.
  if (name === '') return '%empty';
  let out = '';
  for (const char of name) {
    const code = char.codePointAt(0) ?? 0;
    if ((code >= 0x20 && code <= 0x7e && char !== '%') || char === '\t') out += char;
    else if (code >= 0xd800 && code <= 0xdfff) out += `%u${code.toString(16).toUpperCase()}`;
    else out += encodeURIComponent(char);
  }
  return out.replace(/^[ \t]+|[ \t]+$/g, (ends) => ends.replace(/ /g, '%20').replace(/\t/g, '%09'));
}
