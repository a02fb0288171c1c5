import { createReferenceServer, turn } from '@parley/reference-server';
import { useReferenceServer } from '@parley/reference-server/vitest';
import { Parley } from '@parley/sdk';
import { describe, expect, it } from 'vitest';

const TOOL = {
  lookup: { name: 'lookup', description: 'Looks up', requestArgs: { type: 'object' as const } },
};

describe('expect(server).toHaveReceived(filter, { times })', () => {
  const parley = useReferenceServer({ createClient: (init) => new Parley({ ...init, maxRetries: 0 }) });

  /** Two tool calls answered: two POSTs to /v1/tools/response/..., three sends. */
  async function twoToolCalls() {
    parley.server.script([
      turn.toolUses([{ id: 'tooluse_1', name: 'lookup', input: {} }]),
      turn.toolUses([{ id: 'tooluse_2', name: 'lookup', input: {} }]),
      turn.text('Done.'),
    ]);
    const { sessionId } = await parley.client.sessions.create({
      customizations: { extensions: { tools: TOOL } },
    });
    let reply = await parley.client.messages.send(sessionId, { content: 'Go' });
    while (reply.pendingTools.length > 0) {
      await parley.client.tools.respond(sessionId, reply.pendingTools[0]!.requestId, { ok: true });
      reply = await parley.client.messages.send(sessionId, {});
    }
    return sessionId;
  }

  it('counts the requests the journal holds that match a method and a path pattern', async () => {
    const sessionId = await twoToolCalls();
    expect(parley.server).toHaveReceived({ method: 'POST', path: '/v1/tools/response/*/*' }, { times: 2 });
    expect(parley.server).toHaveReceived({ method: 'POST', path: '/v1/messages/*', sessionId }, { times: 3 });
    expect(parley.server).toHaveReceived({ method: 'POST', path: '/v1/sessions' });
    expect(parley.server).not.toHaveReceived({ method: 'DELETE' });
    expect(parley).toHaveReceived({ path: '/v1/sessions' }, { times: 1 });
  });

  it('fails with the count it found and the list of what it received instead', async () => {
    await twoToolCalls();
    let message = '';
    try {
      expect(parley.server).toHaveReceived({ method: 'POST', path: '/v1/tools/response/*/*' }, { times: 3 });
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toContain(
      'expected the server to have received POST /v1/tools/response/*/* 3 times, it received it 2 times. It received:',
    );
    expect(message).toMatch(
      / {2}POST \/v1\/sessions \(201\)\n {2}POST \/v1\/messages\/sess_\w+ \(200\)\n {2}POST \/v1\/tools\/response\/sess_\w+\/tooluse_1 \(\d+\)/,
    );
    expect(() => expect(parley.server).not.toHaveReceived({ method: 'POST' })).toThrow(
      'expected the server not to have received POST any path at least once',
    );
  });

  it('an empty journal says so; anything but a server or a journal is refused', () => {
    expect(() => expect(parley.server).toHaveReceived({ path: '/v1/sessions' })).toThrow(
      'it received it 0 times. It received no request (the journal is empty).',
    );
    expect(() => expect({}).toHaveReceived({ path: '/v1/sessions' })).toThrow(
      'toHaveReceived: expect a reference server (parley.server) or its journal',
    );
    expect(() => expect(createReferenceServer().journal).toHaveReceived({}, { times: -1 })).toThrow(
      'toHaveReceived: times must be an integer >= 0, got -1',
    );
  });
});
