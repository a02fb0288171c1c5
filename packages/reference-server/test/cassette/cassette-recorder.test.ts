import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createReferenceServer, turn } from '@parley/reference-server';
import { InternalServerError, Parley, StreamError } from '@parley/sdk';
import { describe, expect, it } from 'vitest';
import { readCassetteFile } from '../../src/cassette/cassette-file.js';
import {
  InvalidCassetteError,
  parseCassette,
  parseCassetteText,
} from '../../src/cassette/cassette-format.js';
import { createCassetteRecorder } from '../../src/cassette/cassette-recorder.js';
import { formatCassette } from '../../src/cassette/cassette-text.js';
import { capturingFetch } from './capture.js';
import { converse, recordedUpstream, USERS } from './conversation.js';

describe('the cassette recorder', () => {
  it('redacts fields by path and strings anywhere; a redacted value still matches on replay', async () => {
    const { upstream } = recordedUpstream();
    const recorder = createCassetteRecorder({
      redact: { paths: ['customizations.sessionData.user'], values: ['sunny'] },
    });
    const client = new Parley({
      baseUrl: 'http://upstream.test',
      token: USERS[0]!.token,
      maxRetries: 0,
      fetch: capturingFetch(upstream.fetch, [recorder]),
    });
    const transcript = await converse(client);
    const text = formatCassette(recorder.cassette());
    expect(text).not.toContain('"ana"');
    expect(text).not.toContain('sunny');
    expect(text).toContain('"user": "[REDACTED]"');
    expect(text).toContain('"sky": "[REDACTED]"');

    const offline = createReferenceServer({ replay: recorder.cassette() });
    const replayClient = new Parley({
      baseUrl: 'http://o.test',
      token: 'parley-demo-token',
      maxRetries: 0,
      fetch: offline.fetch,
    });
    const replayed = await converse(replayClient);
    // The app sends the real values; the recorded answers come back with the secret redacted.
    expect(replayed.finalTexts[0]).toBe('It is 18 degrees in Paris, and [REDACTED].');
    expect(replayed.replies).toHaveLength(transcript.replies.length);
  });

  it('records a failed model call as a failed turn, which replays as the same error', async () => {
    const { upstream, recorder, client } = recordedUpstream();
    upstream.script([
      turn.fail('The upstream model is overloaded'),
      turn.fail('Cut short', { text: 'Partial answer' }),
    ]);
    const { sessionId } = await client.sessions.create();
    const buffered = await client.messages.send(sessionId, { content: 'Hello' }).catch((e: unknown) => e);
    expect(buffered).toMatchObject({ status: 502, code: 'model_error' });
    const streamed = await client.messages
      .stream(sessionId, {})
      .finalReply()
      .catch((e: unknown) => e);
    expect(streamed).toBeInstanceOf(StreamError);
    const cassette = recorder.cassette();
    expect(cassette.sessions[0]?.turns.map((t) => [t.error?.message, t.content])).toEqual([
      ['The upstream model is overloaded', []],
      ['Cut short', [{ type: 'text', text: 'Partial answer' }]],
    ]);

    const offline = createReferenceServer({ replay: cassette });
    const replayClient = new Parley({
      baseUrl: 'http://o.test',
      token: 'parley-demo-token',
      maxRetries: 0,
      fetch: offline.fetch,
    });
    const session = await replayClient.sessions.create();
    const again = await replayClient.messages
      .send(session.sessionId, { content: 'Hello' })
      .catch((e: unknown) => e);
    expect(again).toBeInstanceOf(InternalServerError);
    expect(again).toMatchObject({
      status: 502,
      code: 'model_error',
      serverMessage: 'The upstream model is overloaded',
    });
    const events: string[] = [];
    const stream = replayClient.messages.stream(session.sessionId, {});
    const failure = await (async () => {
      for await (const item of stream) events.push((item as { type: string }).type);
    })().catch((e: unknown) => e);
    expect(failure).toMatchObject({ code: 'model_error' });
    expect(events).toContain('contentBlockDelta');
  });

  it('leaves out requests that failed and those outside a conversation', async () => {
    const { recorder, client } = recordedUpstream();
    await client.sessions.create({ customizations: { agentId: 'no-such-agent' } }).catch(() => undefined);
    const { sessionId } = await client.sessions.create();
    await client.sessions.list();
    await client.messages.export(sessionId);
    expect(recorder.cassette().sessions).toEqual([{ customizations: null, turns: [] }]);
  });

  it('save() writes the stable text to the file; close() saves too', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'parley-cassette-'));
    const file = join(dir, 'nested', 'run.json');
    const { upstream } = recordedUpstream();
    const recorder = createCassetteRecorder({ file, clock: upstream.clock });
    const client = new Parley({
      baseUrl: 'http://u.test',
      token: USERS[0]!.token,
      maxRetries: 0,
      fetch: capturingFetch(upstream.fetch, [recorder]),
    });
    await converse(client);
    await recorder.close();
    const text = await readFile(file, 'utf8');
    expect(text).toBe(formatCassette(recorder.cassette()));
    expect(readCassetteFile(file)).toEqual(parseCassetteText(text));
  });
});

describe('reading a cassette', () => {
  it('refuses another version, naming the file and the version it reads', () => {
    expect(() => parseCassette({ format: 'parley-cassette', version: 3, sessions: [] }, 'new.json')).toThrow(
      'Invalid cassette new.json: version 3 is not supported; this server reads versions 1 and 2',
    );
  });

  it('names the path of each field that breaks the format', () => {
    const error = (() => {
      try {
        parseCassette(
          {
            format: 'parley-cassette',
            version: 1,
            sessions: [{ customizations: null, turns: [{ content: [] }] }],
          },
          'x.json',
        );
      } catch (e) {
        return e;
      }
    })();
    expect(error).toBeInstanceOf(InvalidCassetteError);
    expect((error as Error).message).toContain('sessions.0.turns.0.input');
  });

  it('a missing file and text that is not JSON are errors naming the file', async () => {
    expect(() => readCassetteFile('/no/such/cassette.json')).toThrow(
      /Invalid cassette \/no\/such\/cassette\.json: ENOENT/,
    );
    expect(() => parseCassetteText('{', 'bad.json')).toThrow(/Invalid cassette bad\.json: not valid JSON/);
    expect(() => createReferenceServer({ replay: '/no/such/cassette.json' })).toThrow(InvalidCassetteError);
  });
});

describe('the record and replay options', () => {
  it('record without upstream is refused with an error that says what to add', () => {
    expect(() => createReferenceServer({ record: 'run.json' })).toThrow(
      'createReferenceServer: record (run.json) needs upstream: recording writes what passes through the checking proxy, so give `upstream: { url }` of the deployment to record',
    );
  });

  it('replay with a model of its own is refused', () => {
    expect(() =>
      createReferenceServer({
        replay: { format: 'parley-cassette', version: 1, sessions: [] },
        model: async function* () {},
      }),
    ).toThrow('pass either `model` or `replay`');
  });
});
