import { readFile } from 'node:fs/promises';
import { useReferenceServer } from '@parley/reference-server/vitest';
import { Parley } from '@parley/sdk';
import { describe, expect, it } from 'vitest';
import { resolveCassetteMode } from '../../src/cassette/cassette-mode.js';
import { formatCassette } from '../../src/cassette/cassette-text.js';
import { converse, recordedUpstream } from './conversation.js';

const WEATHER = new URL('./cassettes/weather.json', import.meta.url);
const MISSING = new URL('./cassettes/not-recorded-yet.json', import.meta.url);
const createClient = (init: { baseUrl: string; token: string }) => new Parley({ ...init, maxRetries: 0 });

describe("useReferenceServer({ cassette: { mode: 'replay' } })", () => {
  const parley = useReferenceServer({ cassette: { file: WEATHER, mode: 'replay' }, createClient });

  it('answers with the recorded turns over HTTP, and keeps its place in the cassette across tests', async () => {
    expect(parley.cassetteMode).toBe('replay');
    const transcript = await converse(parley.client);
    expect(transcript.finalTexts).toEqual([
      'It is 18 degrees in Paris, and sunny.',
      'Sorry, I could not find Oslo.',
      'Why do programmers prefer dark mode? The light attracts bugs.',
    ]);
  });

  it('a session beyond the recording (after the reset between tests) is a replay mismatch', async () => {
    const { sessionId } = await parley.client.sessions.create();
    // Not any mismatch: the cassette was not rewound between tests, its two sessions are used up.
    await expect(parley.client.messages.send(sessionId, { content: 'Hi' })).rejects.toMatchObject({
      status: 501,
      code: 'replay_mismatch',
      message: expect.stringMatching(
        /, no recorded session \(live sess_\w+\), turn 1: the cassette holds 2 sessions and none is left for this one\. Record what the cassette lacks with PARLEY_CASSETTE_MODE=record-missing \(it needs upstream: \{ url: 'http:\/\/upstream\.test' \} \(where it was recorded from\)\), or record the file's cassette again with upstream: \{ url: 'http:\/\/upstream\.test' \} \(where it was recorded from\): PARLEY_CASSETTE_MODE=record npx vitest run 'packages\/reference-server\/test\/cassette\/use-reference-server-cassette\.test\.ts' \(POST /,
      ),
    });
  });
});

describe("useReferenceServer({ cassette: path }) in mode 'auto' with the file present", () => {
  const parley = useReferenceServer({ cassette: WEATHER.pathname, mode: 'msw', createClient });

  it('replays it (here under msw)', async () => {
    expect(parley.cassetteMode).toBe('replay');
    expect((await converse(parley.client)).finalTexts[0]).toBe('It is 18 degrees in Paris, and sunny.');
  });
});

describe('recording through useReferenceServer', () => {
  it("mode 'record' without upstream is refused when the helper is called, naming the file", () => {
    expect(() => useReferenceServer({ cassette: { file: WEATHER, mode: 'record' } })).toThrow(
      `recording cassette ${WEATHER.pathname} needs upstream: { url } (the deployment whose answers are recorded)`,
    );
  });

  it("mode 'auto' with no file yet records, so it needs upstream too", () => {
    expect(() => useReferenceServer({ cassette: MISSING })).toThrow(
      `cassette ${MISSING.pathname} does not exist yet, and recording it needs upstream: { url }`,
    );
  });
});

describe('the cassette mode', () => {
  const base = { file: 'x.json', envMode: undefined, hasUpstream: true };
  it.each([
    ['auto', true, 'record-missing'],
    ['auto', false, 'record'],
    ['replay', false, 'replay'],
    ['record', true, 'record'],
    [undefined, true, 'record-missing'],
  ] as const)('mode %s with the file present: %s gives %s', (mode, exists, expected) => {
    expect(resolveCassetteMode({ ...base, mode, exists })).toBe(expected);
  });

  it("auto is Polly.js's recordIfMissing: a file that exists replays, and what it lacks is recorded only with an upstream", () => {
    expect(resolveCassetteMode({ ...base, mode: 'auto', exists: true, hasUpstream: false })).toBe('replay');
    expect(resolveCassetteMode({ ...base, mode: 'auto', exists: true, hasUpstream: true })).toBe(
      'record-missing',
    );
  });

  it('PARLEY_CASSETTE_MODE wins over the mode in code, and must be a mode', () => {
    expect(resolveCassetteMode({ ...base, mode: 'replay', exists: true, envMode: 'record' })).toBe('record');
    expect(resolveCassetteMode({ ...base, mode: 'record', exists: true, envMode: ' ' })).toBe('record');
    expect(() => resolveCassetteMode({ ...base, mode: 'auto', exists: true, envMode: 'rewind' })).toThrow(
      'PARLEY_CASSETTE_MODE=rewind is not a cassette mode: use replay, record, auto or record-missing',
    );
  });
});

describe('the committed cassette', () => {
  it('is what recording the conversation again writes, byte for byte (format version 2 is stable)', async () => {
    const { recorder, client } = recordedUpstream();
    await converse(client);
    expect(formatCassette(recorder.cassette())).toBe(await readFile(WEATHER, 'utf8'));
  });
});
