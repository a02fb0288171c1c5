import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createReferenceServer, ManualClock, parseCassetteText } from '@parley/reference-server';
import { describe, expect, it } from 'vitest';
import { USERS } from './conversation.js';
import { askWeather, clientOf, inProcessUpstream } from './weather-upstream.js';

const tempFile = () => join(mkdtempSync(join(tmpdir(), 'parley-missing-')), 'weather.json');
const LATER = Date.parse('2024-03-01T12:00:00.000Z');

/** A cassette holding one session, Paris, recorded through the proxy. */
async function parisCassette(): Promise<string> {
  const file = tempFile();
  const { options } = inProcessUpstream();
  const proxy = createReferenceServer({ users: USERS, upstream: options, record: file });
  await askWeather(clientOf(proxy.fetch), 'Paris');
  await proxy.close();
  return file;
}

/** The text of a cassette up to the end of its last session (what appending must leave alone). */
function untilLastSession(text: string): string {
  return text.slice(0, text.lastIndexOf('}', text.lastIndexOf(']')) + 1);
}

describe('record-missing (replay: { recordMissing: true } with upstream)', () => {
  it('replays what the cassette holds without asking the upstream, records a session it lacks, and keeps the other recordings byte for byte', async () => {
    const file = await parisCassette();
    const before = readFileSync(file, 'utf8');
    const { upstream, options } = inProcessUpstream();
    const server = createReferenceServer({
      users: USERS,
      clock: new ManualClock(LATER),
      upstream: options,
      replay: { cassette: file, recordMissing: true },
    });
    expect(server.cassette?.mode).toBe('record-missing');
    const client = clientOf(server.fetch);
    expect(await askWeather(client, 'Paris')).toBe('It is 18 degrees in Paris, and sunny.');
    expect(upstream.journal.entries()).toEqual([]);
    expect(await askWeather(client, 'Oslo')).toBe('Sorry, I could not find Oslo.');
    expect(upstream.journal.entries({ method: 'POST', path: '/v1/sessions' })).toHaveLength(1);
    await server.close();

    const after = readFileSync(file, 'utf8');
    expect(after.startsWith(untilLastSession(before))).toBe(true);
    const cassette = parseCassetteText(after);
    expect(cassette.sessions).toHaveLength(2);
    expect(cassette.sessions[1]?.recordedAt).toBe('2024-03-01T12:00:00.000Z');
    expect(cassette.sessions[1]?.turns.map((t) => t.input)).toMatchObject([
      { user: [{ text: 'What is the weather in Oslo?' }] },
      { toolResults: [{ is_error: true }] },
    ]);
    expect(cassette.sessions[1]?.turns[1]?.toolResponses).toMatchObject([
      { state: 'ERROR', error: 'City not found' },
    ]);

    // Offline now: the file alone answers both conversations.
    const offline = createReferenceServer({ users: USERS, replay: file });
    expect(await askWeather(clientOf(offline.fetch), 'Paris')).toBe('It is 18 degrees in Paris, and sunny.');
    expect(await askWeather(clientOf(offline.fetch), 'Oslo')).toBe('Sorry, I could not find Oslo.');
  });

  it('a turn past the end of a recorded session is answered upstream (which is brought up to the conversation first) and appended to that session', async () => {
    const file = await parisCassette();
    const cassette = parseCassetteText(readFileSync(file, 'utf8'));
    // Keep only the first turn: the answer after the tool result is what the cassette lacks.
    writeFileSync(
      file,
      JSON.stringify({
        ...cassette,
        sessions: [{ ...cassette.sessions[0], turns: cassette.sessions[0]?.turns.slice(0, 1) }],
      }),
    );
    const { upstream, options } = inProcessUpstream();
    const server = createReferenceServer({
      users: USERS,
      upstream: options,
      replay: { cassette: file, recordMissing: true },
    });
    expect(await askWeather(clientOf(server.fetch), 'Paris')).toBe('It is 18 degrees in Paris, and sunny.');
    // Caught up: the user's message, then the tool response and the resume.
    expect(upstream.journal.entries().map((e) => `${e.method} ${e.path.replace(/sess_\w+/, ':id')}`)).toEqual(
      [
        'POST /v1/sessions',
        'POST /v1/messages/:id',
        'POST /v1/tools/response/:id/tooluse_paris',
        'POST /v1/messages/:id',
      ],
    );
    await server.close();
    const written = parseCassetteText(readFileSync(file, 'utf8'));
    expect(written.sessions).toHaveLength(1);
    expect(written.sessions[0]?.turns).toHaveLength(2);
    expect(written.sessions[0]?.turns[1]?.content).toEqual([
      { type: 'text', text: 'It is 18 degrees in Paris, and sunny.' },
    ]);
  });

  it("onMismatch: 'upstream' answers a conversation the cassette does not hold from the upstream, and writes nothing", async () => {
    const file = await parisCassette();
    const before = readFileSync(file, 'utf8');
    const { upstream, options } = inProcessUpstream();
    const server = createReferenceServer({
      users: USERS,
      upstream: options,
      replay: { cassette: file, onMismatch: 'upstream' },
    });
    expect(server.cassette?.mode).toBe('replay');
    // Session 1 was recorded asking about Paris: Oslo differs, so the upstream answers.
    expect(await askWeather(clientOf(server.fetch), 'Oslo')).toBe('Sorry, I could not find Oslo.');
    expect(upstream.journal.entries({ method: 'POST', path: '/v1/messages/*' })).toHaveLength(2);
    await server.close();
    expect(readFileSync(file, 'utf8')).toBe(before);
  });

  it('a missing file starts an empty cassette, which gets the provenance at its top', async () => {
    const file = tempFile();
    const { options } = inProcessUpstream();
    const server = createReferenceServer({
      users: USERS,
      clock: new ManualClock(LATER),
      upstream: options,
      replay: { cassette: file, recordMissing: true },
    });
    await askWeather(clientOf(server.fetch), 'Paris');
    await server.close();
    const cassette = parseCassetteText(readFileSync(file, 'utf8'));
    expect(cassette).toMatchObject({
      recordedAt: '2024-03-01T12:00:00.000Z',
      upstream: 'https://upstream.test:8443',
    });
    expect(cassette.sessions[0]?.recordedAt).toBeUndefined();
    expect(cassette.sessions[0]?.turns).toHaveLength(2);
  });

  it('close() called more than once (a test and its harness both stop the server, at once or one after the other) adds what was recorded once', async () => {
    const file = await parisCassette();
    const { options } = inProcessUpstream();
    const server = createReferenceServer({
      users: USERS,
      upstream: options,
      replay: { cassette: file, recordMissing: true },
    });
    const client = clientOf(server.fetch);
    await askWeather(client, 'Paris');
    await askWeather(client, 'Oslo');
    await Promise.all([server.close(), server.close()]);
    await server.close();
    expect(parseCassetteText(readFileSync(file, 'utf8')).sessions).toHaveLength(2);
  });

  it('bad settings are refused at creation, naming what is wrong', async () => {
    const file = await parisCassette();
    const { options } = inProcessUpstream();
    expect(() => createReferenceServer({ replay: { cassette: file, recordMissing: true } })).toThrow(
      `replay of ${file}: recordMissing needs upstream: { url }`,
    );
    expect(() => createReferenceServer({ replay: { cassette: file, onMismatch: 'upstream' } })).toThrow(
      "onMismatch: 'upstream' needs upstream: { url }",
    );
    const parsed = parseCassetteText(readFileSync(file, 'utf8'));
    expect(() =>
      createReferenceServer({ upstream: options, replay: { cassette: parsed, recordMissing: true } }),
    ).toThrow('recordMissing writes to the cassette file, so give its path');
    expect(() =>
      createReferenceServer({ replay: { cassette: file, onMismatch: 'upstrem' as 'upstream' } }),
    ).toThrow('onMismatch "upstrem" is not one of error, stand-in, upstream');
  });
});
