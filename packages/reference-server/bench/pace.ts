// Streaming pace with the real clock: one streamed reply of N words at a words-per-second pace over
// loopback HTTP, timed from the request to the last byte, against the time the pace asks for
// (words / wordsPerSecond). A ratio of 1.00 is exact; the goal is within 5%.
import { startServer } from '@parley/reference-server/node';

const headers = { authorization: 'Bearer parley-demo-token', 'content-type': 'application/json' };

export interface PaceResult {
  words: number;
  wordsPerSecond: number;
  expectedMs: number;
  measuredMs: number;
  ratio: number;
}

/** Streams one reply of `words` words at `wordsPerSecond` and times it. */
export async function benchPace(words: number, wordsPerSecond: number): Promise<PaceResult> {
  const running = await startServer({ port: 0, pace: { wordsPerSecond } });
  try {
    // A Full session (a model, no agent): no agent's maxTokens cuts the reply short.
    const created = await fetch(`${running.url}/v1/sessions`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ customizations: { model: 'parley-stand-in-1' } }),
    });
    const { sessionId } = (await created.json()) as { sessionId: string };
    const text = Array.from({ length: words }, (_, i) => `w${i}`).join(' ');
    const start = performance.now();
    const response = await fetch(`${running.url}/v1/messages/${sessionId}/stream`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ content: `/say ${text}` }),
    });
    const body = await response.text();
    const measuredMs = performance.now() - start;
    if (response.status !== 200 || !body.includes('replyStop')) {
      throw new Error(`the paced stream answered ${response.status} without a replyStop`);
    }
    const expectedMs = (words / wordsPerSecond) * 1000;
    return { words, wordsPerSecond, expectedMs, measuredMs, ratio: measuredMs / expectedMs };
  } finally {
    await running.close();
  }
}
