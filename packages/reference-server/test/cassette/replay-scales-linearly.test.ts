import type { Customizations } from '@parley/protocol';
import { type Cassette, createReferenceServer } from '@parley/reference-server';
import { describe, expect, it } from 'vitest';

const TOKEN = 'parley-demo-token';
const headers = { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' };

/** `sessions` recorded sessions of one turn each, told apart by `sessionData.n`. */
function cassetteOf(sessions: number): Cassette {
  return {
    format: 'parley-cassette',
    version: 1,
    sessions: Array.from({ length: sessions }, (_, n) => ({
      customizations: { sessionData: { n } },
      turns: [
        {
          input: { user: [{ type: 'text' as const, text: 'Hi' }] },
          content: [{ type: 'text' as const, text: `Answer ${n}` }],
          stopReason: 'end_turn',
        },
      ],
    })),
  };
}

/** Replays every session (in reverse order, keyed), counting calls of the key function. */
async function keyCalls(sessions: number): Promise<number> {
  let calls = 0;
  const key = (customizations: Customizations) => {
    calls++;
    return (customizations as { sessionData?: { n?: number } }).sessionData?.n;
  };
  const server = createReferenceServer({
    extensions: false,
    replay: { cassette: cassetteOf(sessions), match: { sessions: key } },
  });
  for (let n = sessions - 1; n >= 0; n--) {
    const created = await server.fetch(
      new Request('http://replay.test/v1/sessions', {
        method: 'POST',
        headers,
        body: JSON.stringify({ customizations: { sessionData: { n } } }),
      }),
    );
    const { sessionId } = (await created.json()) as { sessionId: string };
    const reply = await server.fetch(
      new Request(`http://replay.test/v1/messages/${sessionId}`, {
        method: 'POST',
        headers,
        body: '{"content":"Hi"}',
      }),
    );
    expect(
      ((await reply.json()) as { messages: Array<{ content: Array<{ text: string }> }> }).messages.at(-1)
        ?.content[0]?.text,
    ).toBe(`Answer ${n}`);
  }
  expect(server.cassette?.unused()).toEqual([]);
  return calls;
}

describe('replaying a large cassette', () => {
  it('finds each session through an index built once: the key function runs once per recorded and once per live session, 10 times more sessions is 10 times the calls', async () => {
    const small = await keyCalls(100);
    const large = await keyCalls(1000);
    expect(small).toBe(200);
    expect(large).toBe(2000);
  });
});
