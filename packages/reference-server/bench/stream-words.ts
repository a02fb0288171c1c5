// One streamed reply over loopback HTTP, 10k words then 80k words: microseconds per word and how
// the longer reply's per-word cost compares (linear = x1.0). The server runs in a child process.
import { median } from './bench-utils.js';
import { startTarget } from './target.js';

const headers = { authorization: 'Bearer parley-demo-token', 'content-type': 'application/json' };

async function streamOnce(url: string, words: number): Promise<number> {
  // A Full session (a model, no agent): no agent's maxTokens cuts the reply short.
  const created = await fetch(`${url}/v1/sessions`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ customizations: { model: 'parley-stand-in-1' } }),
  });
  const { sessionId } = (await created.json()) as { sessionId: string };
  const text = Array.from({ length: words }, (_, i) => `w${i}`).join(' ');
  const start = performance.now();
  const response = await fetch(`${url}/v1/messages/${sessionId}/stream`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ content: `/say ${text}` }),
  });
  let bytes = 0;
  for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) bytes += chunk.byteLength;
  const elapsed = performance.now() - start;
  if (response.status !== 200 || bytes < words * 40)
    throw new Error(`stream answered ${response.status}, ${bytes} bytes`);
  await fetch(`${url}/v1/sessions/${sessionId}`, { method: 'DELETE', headers });
  return (elapsed * 1000) / words;
}

export interface StreamResult {
  small: number;
  large: number;
  smallWords: number;
  largeWords: number;
  ratio: number;
}

/** Microseconds per word for a short and a long reply (median of `rounds`), and their ratio. */
export async function benchStreamWords(
  smallWords = 10_000,
  largeWords = 80_000,
  rounds = 3,
): Promise<StreamResult> {
  const target = await startTarget('reference');
  try {
    await streamOnce(target.url, smallWords); // warm-up
    const small: number[] = [];
    const large: number[] = [];
    for (let round = 0; round < rounds; round++) {
      small.push(await streamOnce(target.url, smallWords));
      large.push(await streamOnce(target.url, largeWords));
      await target.reset();
    }
    const s = median(small);
    const l = median(large);
    return { small: s, large: l, smallWords, largeWords, ratio: l / s };
  } finally {
    target.child.disconnect();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  console.log(await benchStreamWords());
}
