// Benchmark: the SDK's incremental stream parsing against a baseline taken in the same run
// (`response.json()` on the same bytes, which must buffer the whole body first).
// Prints ratios, never asserts times. Run: npx pnpm@10 bench (from the repository root)
import { Parley } from '@parley/sdk';

const EVENTS = Number(process.env.BENCH_EVENTS ?? 20_000);
const CHUNK_BYTES = 16 * 1024;
const ROUNDS = 5;

function body(): Uint8Array {
  const events: unknown[] = [{ messageStart: { role: 'assistant', index: 1 } }];
  for (let i = 0; i < EVENTS; i++) {
    events.push({ contentBlockDelta: { contentBlockIndex: 0, delta: { text: `word${i} ` } } });
  }
  events.push({ contentBlockStop: { contentBlockIndex: 0 } }, { messageStop: { stopReason: 'end_turn' } });
  const message = {
    role: 'assistant',
    index: 1,
    content: [{ type: 'text', text: 'x' }],
    deletedAt: null,
    createdAt: 0,
  };
  events.push({
    replyStop: { messages: [message], stopReason: 'end_turn', pendingTools: [], heartbeatTimeoutMs: 15_000 },
  });
  return new TextEncoder().encode(JSON.stringify({ sessionId: 'sess_bench', events }));
}

function response(bytes: Uint8Array): Response {
  let offset = 0;
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (offset >= bytes.byteLength) return controller.close();
      controller.enqueue(bytes.subarray(offset, offset + CHUNK_BYTES));
      offset += CHUNK_BYTES;
    },
  });
  return new Response(stream, { headers: { 'content-type': 'application/json' } });
}

async function baseline(bytes: Uint8Array): Promise<{ firstMs: number; totalMs: number; count: number }> {
  const start = performance.now();
  const parsed = (await response(bytes).json()) as { events: unknown[] };
  let firstMs = 0;
  let count = 0;
  for (const _event of parsed.events) {
    if (count++ === 0) firstMs = performance.now() - start;
  }
  return { firstMs, totalMs: performance.now() - start, count };
}

async function sdk(bytes: Uint8Array): Promise<{ firstMs: number; totalMs: number; count: number }> {
  const client = new Parley({ baseUrl: 'http://bench.test', token: 't', fetch: async () => response(bytes) });
  const start = performance.now();
  let firstMs = 0;
  let count = 0;
  for await (const _event of client.messages.stream('sess_bench', { content: 'x' })) {
    if (count++ === 0) firstMs = performance.now() - start;
  }
  return { firstMs, totalMs: performance.now() - start, count };
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
}

const bytes = body();
await baseline(bytes);
await sdk(bytes); // warm-up
const runs = {
  baseline: [] as Awaited<ReturnType<typeof sdk>>[],
  sdk: [] as Awaited<ReturnType<typeof sdk>>[],
};
for (let i = 0; i < ROUNDS; i++) {
  runs.baseline.push(await baseline(bytes));
  runs.sdk.push(await sdk(bytes));
}
const b = {
  first: median(runs.baseline.map((r) => r.firstMs)),
  total: median(runs.baseline.map((r) => r.totalMs)),
};
const s = { first: median(runs.sdk.map((r) => r.firstMs)), total: median(runs.sdk.map((r) => r.totalMs)) };
console.log(
  `body: ${(bytes.byteLength / 1024).toFixed(0)} KiB, ${runs.sdk[0]?.count} events, ${ROUNDS} rounds (median)`,
);
console.log(
  `baseline (response.json(), whole body first): first event ${b.first.toFixed(1)} ms, all ${b.total.toFixed(1)} ms`,
);
console.log(
  `SDK stream (incremental):                     first event ${s.first.toFixed(1)} ms, all ${s.total.toFixed(1)} ms`,
);
console.log(
  `ratio SDK/baseline: time to first event x${(s.first / b.first).toFixed(3)}, total x${(s.total / b.total).toFixed(2)}`,
);
