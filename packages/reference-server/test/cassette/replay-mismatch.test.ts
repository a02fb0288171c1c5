import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createReferenceServer, type ReferenceServerOptions } from '@parley/reference-server';
import { InternalServerError, Parley, StreamError } from '@parley/sdk';
import { describe, expect, it } from 'vitest';
import type { Cassette } from '../../src/cassette/cassette-format.js';
import { writeCassetteFile } from '../../src/cassette/write-cassette-file.js';
import { converse, recordedUpstream, WEATHER_TOOL } from './conversation.js';

async function recorded(): Promise<Cassette> {
  const { recorder, client } = recordedUpstream();
  await converse(client);
  return recorder.cassette();
}

function offline(replay: NonNullable<ReferenceServerOptions['replay']>) {
  const server = createReferenceServer({ replay });
  const client = new Parley({
    baseUrl: 'http://offline.test',
    token: 'parley-demo-token',
    maxRetries: 0,
    fetch: server.fetch,
  });
  return { server, client };
}

const FIRST = { customizations: { sessionData: { user: 'ana' }, extensions: { tools: WEATHER_TOOL } } };

describe('a replayed model call that is not the recorded one', () => {
  it('is 501 replay_mismatch naming the cassette, the session, the turn, what was expected and what came', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'parley-cassette-'));
    const file = join(dir, 'weather.json');
    await writeCassetteFile(file, await recorded());
    const { client } = offline(file);
    const { sessionId } = await client.sessions.create(FIRST);
    const error = await client.messages
      .send(sessionId, { content: 'What about Rome?' })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InternalServerError);
    expect(
      (error instanceof InternalServerError || error instanceof StreamError) &&
        error.code === 'replay_mismatch',
    ).toBe(true);
    const apiError = error as InternalServerError;
    expect(apiError.status).toBe(501);
    expect(apiError.code).toBe('replay_mismatch');
    expect(apiError.serverMessage).toBe(
      `Replay mismatch in cassette ${file}, session 1 of 2 (live ${sessionId}), turn 1: ` +
        'expected the user text "What is the weather in Paris?", got the user text "What about Rome?". ' +
        'The test sends something else than when it was recorded: record the cassette again ' +
        "(PARLEY_CASSETTE_MODE=record with upstream: { url: 'http://upstream.test' } (where it was recorded from), " +
        `or parley-server --record '${file}' --upstream http://upstream.test)`,
    );
  });

  it('in a stream is an exception event with code replay_mismatch (a StreamError in the SDK)', async () => {
    const { client } = offline(await recorded());
    const { sessionId } = await client.sessions.create(FIRST);
    const error = await client.messages
      .stream(sessionId, { content: 'What about Rome?' })
      .finalReply()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StreamError);
    expect(
      (error instanceof InternalServerError || error instanceof StreamError) &&
        error.code === 'replay_mismatch',
    ).toBe(true);
    expect((error as StreamError).message).toContain('cassette given in code, session 1 of 2');
  });

  it('names the tool result that differs', async () => {
    const { client } = offline(await recorded());
    const { sessionId } = await client.sessions.create(FIRST);
    const asked = await client.messages.send(sessionId, { content: 'What is the weather in Paris?' });
    await client.tools.respond(sessionId, asked.pendingTools[0]!.requestId, {
      temperatureC: 25,
      sky: 'sunny',
    });
    const error = await client.messages.send(sessionId, {}).catch((e: unknown) => e);
    expect(
      (error instanceof InternalServerError || error instanceof StreamError) &&
        error.code === 'replay_mismatch',
    ).toBe(true);
    expect((error as InternalServerError).serverMessage).toContain(
      'turn 2: expected tool result 1 to be the result {"temperatureC":18,"sky":"sunny"}, ' +
        'got the result {"temperatureC":25,"sky":"sunny"}',
    );
  });

  it('a session beyond the recorded ones, and a turn beyond a session, say how many were recorded', async () => {
    const { client } = offline(await recorded());
    await client.sessions.create(FIRST);
    const second = await client.sessions.create();
    await client.messages.send(second.sessionId, { content: 'Tell me a joke' });
    const beyondTurns = await client.messages
      .send(second.sessionId, { content: 'Another' })
      .catch((e: unknown) => e);
    expect((beyondTurns as InternalServerError).serverMessage).toContain(
      'session 2 of 2 (live ' +
        second.sessionId +
        '), turn 2: the recorded session has 1 turn and all were played',
    );
    const third = await client.sessions.create();
    const beyondSessions = await client.messages
      .send(third.sessionId, { content: 'Hi' })
      .catch((e: unknown) => e);
    expect((beyondSessions as InternalServerError).serverMessage).toContain(
      'no recorded session (live ' +
        third.sessionId +
        '), turn 1: the cassette holds 2 sessions and none is left for this one',
    );
  });

  it("with onMismatch: 'stand-in' the stand-in model answers instead, and the recording goes on after", async () => {
    const { client } = offline({ cassette: await recorded(), onMismatch: 'stand-in' });
    const { sessionId } = await client.sessions.create(FIRST);
    const standIn = await client.messages.send(sessionId, { content: 'What about Rome?' });
    expect(standIn.messages.at(-1)?.content).toEqual([{ type: 'text', text: 'You said: What about Rome?' }]);
    const recordedTurn = await client.messages.send(sessionId, { content: 'What is the weather in Paris?' });
    expect(recordedTurn.pendingTools.map((t) => t.requestId)).toEqual(['tooluse_paris']);
  });

  it('sessions matched by sessionData play their own recording whatever the order they are created in', async () => {
    const { client } = offline({ cassette: await recorded(), match: { sessions: 'sessionData' } });
    const bo = await client.sessions.create({ customizations: { sessionData: { user: 'bo' } } });
    const ana = await client.sessions.create(FIRST);
    const joke = await client.messages.send(bo.sessionId, { content: 'Tell me a joke' });
    expect(joke.messages.at(-1)?.content[0]).toMatchObject({ text: expect.stringContaining('dark mode') });
    const weather = await client.messages.send(ana.sessionId, { content: 'What is the weather in Paris?' });
    expect(weather.stopReason).toBe('tool_use');
  });
});
