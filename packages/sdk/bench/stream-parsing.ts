// Benchmark: the SDK's streamed-reply decoding against two baselines taken in the same run on the
// same bytes, fed in the same chunks: the raw @streamparser/json parser (a general incremental JSON
// parser on the same paths, doing no SDK work; the SDK was built on it before its own scanner), and
// `response.json()` (buffers the whole body first). Runs at 20k and 200k
// events to show whether the SDK's cost per event stays flat. Prints ratios, never asserts times.
// Run: npx --yes pnpm@10 bench (from the repository root). BENCH_ROUNDS=n changes the rounds.
import { Parley } from '@parley/sdk';
import { JSONParser } from '@streamparser/json';

const SIZES = [20_000, 200_000];
const CHUNK_BYTES = 16 * 1024;
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);

interface Timing {
  firstMs: number;
  totalMs: number;
  count: number;
}

function body(events: number): Uint8Array {
  const list: unknown[] = [{ messageStart: { role: 'assistant', index: 1 } }];
  for (let i = 0; i < events; i++) {
    list.push({ contentBlockDelta: { contentBlockIndex: 0, delta: { text: `word${i} ` } } });
  }
  list.push({ contentBlockStop: { contentBlockIndex: 0 } }, { messageStop: { stopReason: 'end_turn' } });
  const message = {
    role: 'assistant',
    index: 1,
    content: [{ type: 'text', text: 'x' }],
    deletedAt: null,
    createdAt: 0,
  };
  list.push({
    replyStop: { messages: [message], stopReason: 'end_turn', pendingTools: [], heartbeatTimeoutMs: 15_000 },
  });
  return new TextEncoder().encode(JSON.stringify({ sessionId: 'sess_bench', events: list }));
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

async function jsonParse(bytes: Uint8Array): Promise<Timing> {
  const start = performance.now();
  const parsed = (await response(bytes).json()) as { events: unknown[] };
  let firstMs = 0;
  let count = 0;
  for (const _event of parsed.events) {
    if (count++ === 0) firstMs = performance.now() - start;
  }
  return { firstMs, totalMs: performance.now() - start, count };
}

async function rawParser(bytes: Uint8Array): Promise<Timing> {
  const start = performance.now();
  let firstMs = 0;
  let count = 0;
  const parser = new JSONParser({ paths: ['$.sessionId', '$.events.*'], keepStack: false });
  parser.onValue = ({ key }) => {
    if (typeof key === 'number' && count++ === 0) firstMs = performance.now() - start;
  };
  const reader = response(bytes).body!.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    parser.write(value);
  }
  return { firstMs, totalMs: performance.now() - start, count };
}

async function sdk(bytes: Uint8Array): Promise<Timing> {
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

const CONTENDERS = { jsonParse, rawParser, sdk };
type Name = keyof typeof CONTENDERS;
const results = new Map<number, Record<Name, { first: number; total: number; count: number }>>();

for (const size of SIZES) {
  const bytes = body(size);
  for (const run of Object.values(CONTENDERS)) await run(bytes); // warm-up
  const runs: Record<Name, Timing[]> = { jsonParse: [], rawParser: [], sdk: [] };
  for (let i = 0; i < ROUNDS; i++) {
    // Interleaved, so drift in machine load hits every contender alike.
    for (const [name, run] of Object.entries(CONTENDERS) as [Name, typeof sdk][])
      runs[name].push(await run(bytes));
  }
  const summary = {} as Record<Name, { first: number; total: number; count: number }>;
  for (const name of Object.keys(CONTENDERS) as Name[]) {
    summary[name] = {
      first: median(runs[name].map((r) => r.firstMs)),
      total: median(runs[name].map((r) => r.totalMs)),
      count: runs[name][0]?.count ?? 0,
    };
  }
  results.set(size, summary);
  const kib = (bytes.byteLength / 1024).toFixed(0);
  console.log(`\nstream decoding, ${summary.sdk.count} events, ${kib} KiB body, ${ROUNDS} rounds (median):`);
  for (const name of Object.keys(CONTENDERS) as Name[]) {
    const { first, total, count } = summary[name];
    const rate = ((count / total) * 1000).toFixed(0);
    console.log(
      `  ${name.padEnd(10)} first event ${first.toFixed(2).padStart(7)} ms, all ${total.toFixed(1).padStart(7)} ms, ${rate.padStart(8)} events/s`,
    );
  }
  const { sdk: s, rawParser: r, jsonParse: j } = summary;
  console.log(
    `  SDK throughput = x${(r.total / s.total).toFixed(2)} the raw parser, x${(j.total / s.total).toFixed(2)} JSON.parse; ` +
      `first event x${(s.first / r.first).toFixed(2)} the raw parser's time`,
  );
}

const [small, large] = SIZES.map((size) => results.get(size)!);
if (small && large) {
  const perEvent = (t: { total: number; count: number }) => t.total / t.count;
  const growth = (name: Name) => (perEvent(large[name]) / perEvent(small[name])).toFixed(2);
  console.log(
    `\nper-event cost growth ${SIZES[0]} -> ${SIZES[1]} events: SDK x${growth('sdk')}, raw parser x${growth('rawParser')}, JSON.parse x${growth('jsonParse')}`,
  );
}
