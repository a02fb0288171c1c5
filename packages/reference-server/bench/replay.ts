// In process: buffered turns answered by a replayed cassette against the same turns answered by a
// scripted model, on the same server code (create a session, send one message, read the reply).
import {
  type Cassette,
  createReferenceServer,
  type ReferenceServerOptions,
  scriptedModel,
  turn,
} from '@parley/reference-server';
import { median } from './bench-utils.js';

const TOKEN = 'parley-demo-token';
const ROUNDS = 5;
const USER_TEXT = 'What is the weather in Paris today?';
const ANSWER = 'Right now it is 18 degrees and sunny in Paris. A good day for a walk along the river!';

function cassetteOf(sessions: number): Cassette {
  const session = {
    customizations: null,
    turns: [
      {
        input: { user: [{ type: 'text' as const, text: USER_TEXT }] },
        content: [{ type: 'text' as const, text: ANSWER }],
        stopReason: 'end_turn',
        usage: { inputTokens: 7, outputTokens: 18, totalTokens: 25 },
      },
    ],
  };
  return { format: 'parley-cassette', version: 1, sessions: Array.from({ length: sessions }, () => session) };
}

async function turnsPerSecond(options: ReferenceServerOptions, count: number): Promise<number> {
  const server = createReferenceServer(options);
  const headers = { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' };
  const body = JSON.stringify({ content: USER_TEXT });
  const start = performance.now();
  for (let i = 0; i < count; i++) {
    const created = await server.fetch(
      new Request('http://bench.test/v1/sessions', { method: 'POST', headers }),
    );
    const { sessionId } = (await created.json()) as { sessionId: string };
    const reply = await server.fetch(
      new Request(`http://bench.test/v1/messages/${sessionId}`, { method: 'POST', headers, body }),
    );
    if (reply.status !== 200) throw new Error(`send answered ${reply.status}: ${await reply.text()}`);
    await reply.text();
  }
  const perSecond = count / ((performance.now() - start) / 1000);
  await server.close();
  return perSecond;
}

/** Turns per second replayed and scripted, alternating rounds; the medians and their ratio. */
export async function benchReplay(
  count = 2000,
): Promise<{ replay: number; scripted: number; ratio: number }> {
  const runs = { replay: [] as number[], scripted: [] as number[] };
  const cassette = cassetteOf(count);
  const turns = Array.from({ length: count }, () => turn.text(ANSWER));
  for (let round = 0; round < ROUNDS; round++) {
    // A fresh server per round for both: the same empty session store.
    runs.scripted.push(await turnsPerSecond({ extensions: false, model: scriptedModel(turns) }, count));
    runs.replay.push(await turnsPerSecond({ extensions: false, replay: cassette }, count));
  }
  // The first round warms both up; it is not counted.
  const replay = median(runs.replay.slice(1));
  const scripted = median(runs.scripted.slice(1));
  return { replay, scripted, ratio: replay / scripted };
}

if (import.meta.url === `file://${process.argv[1]}`) console.log(await benchReplay());
