// Benchmark: what partial tool input (`partialInput()` and a `toolInputDelta` listener) adds to a
// streamed reply, against @streamparser/json alone fed the same fragments, in the same run. The
// reply carries one tool call whose input is an array of small items, in fragments of 4
// characters (the reference server's default). Three contenders, interleaved per round:
//   plain    the stream without the option (every event parsed and delivered, input joined once)
//   partial  the same stream with `partialInput()` and a listener on every delta that reads its
//            name and fragment, and its `partial` on every 256th delta and the last (a UI that
//            renders the newest input once a frame)
//   parser   @streamparser/json alone, fed the fragments, its values dropped
// The cost of partial input is `partial - plain`; it is printed as a ratio of `parser` (goal: at
// most 2) and per item at 1k and 10k items (goal: within 1.5 of each other), from each
// contender's fastest round (on a shared machine, the round least disturbed). Prints, never asserts.
// Run: npx tsx --expose-gc --conditions=@parley/source packages/sdk/bench/partial-input.ts (also in
// `pnpm bench`).
// BENCH_ROUNDS=n changes the rounds.
import { Parley } from '@parley/sdk';
import { partialInput } from '@parley/sdk/partial-input';
import { JSONParser } from '@streamparser/json';

const SIZES = [1_000, 10_000];
const FRAGMENT_LENGTH = 4;
const READ_EVERY = 256;
const CHUNK_BYTES = 16 * 1024;
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 15);

function fragmentsOf(items: number): string[] {
  const input = JSON.stringify({
    items: Array.from({ length: items }, (_, i) => ({ id: i, name: `item ${i}`, done: i % 2 === 0 })),
  });
  const fragments: string[] = [];
  for (let at = 0; at < input.length; at += FRAGMENT_LENGTH) {
    fragments.push(input.slice(at, at + FRAGMENT_LENGTH));
  }
  return fragments;
}

/** The body of a streamed reply that stops for one tool call with these input fragments. */
function body(fragments: string[]): Uint8Array {
  const id = 'tooluse_bench';
  const events: unknown[] = [
    { messageStart: { role: 'assistant', index: 1 } },
    { contentBlockStart: { contentBlockIndex: 0, start: { toolUse: { toolUseId: id, name: 'bulk' } } } },
    ...fragments.map((input) => ({
      contentBlockDelta: { contentBlockIndex: 0, delta: { toolUse: { input } } },
    })),
    { contentBlockStop: { contentBlockIndex: 0 } },
    { messageStop: { stopReason: 'tool_use' } },
  ];
  const message = {
    role: 'assistant',
    index: 1,
    content: [{ type: 'tool_use', id, name: 'bulk', input: {} }],
    deletedAt: null,
    createdAt: 0,
  };
  events.push({
    replyStop: { messages: [message], stopReason: 'tool_use', pendingTools: [], heartbeatTimeoutMs: 15_000 },
  });
  return new TextEncoder().encode(JSON.stringify({ sessionId: 'sess_bench', events }));
}

/** The body in chunks of 16 KiB, as a socket hands it over. */
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

function client(bytes: Uint8Array): Parley {
  return new Parley({ baseUrl: 'http://bench.test', token: 't', fetch: async () => response(bytes) });
}

async function plain(bytes: Uint8Array): Promise<void> {
  await client(bytes).messages.stream('sess_bench', { content: 'x' }).finalReply();
}

async function partial(bytes: Uint8Array): Promise<void> {
  const stream = client(bytes).messages.stream(
    'sess_bench',
    { content: 'x' },
    { partialInput: partialInput() },
  );
  let deltas = 0;
  let chars = 0;
  let last: { partial: unknown } | undefined;
  stream.on('toolInputDelta', (delta) => {
    chars += delta.name.length + delta.fragment.length;
    last = delta;
    if (++deltas % READ_EVERY === 0) chars += Object.keys(delta.partial).length;
  });
  await stream.finalReply();
  if (last) chars += Object.keys(last.partial as object).length;
  if (chars === 0) throw new Error('no deltas');
}

function parser(fragments: string[]): void {
  const json = new JSONParser({ emitPartialTokens: true, emitPartialValues: true });
  let values = 0;
  json.onValue = () => {
    values++;
  };
  for (const fragment of fragments) json.write(fragment);
  if (values === 0) throw new Error('no values');
}

const { gc } = globalThis as { gc?: () => void };

/**
 * The time of `times` runs in a row, in ms, after a collection (with --expose-gc) so that one
 * contender's garbage is not collected in another's time.
 */
async function timed(times: number, run: () => unknown): Promise<number> {
  gc?.();
  const start = performance.now();
  for (let i = 0; i < times; i++) await run();
  return performance.now() - start;
}

const inputs = SIZES.map((items) => {
  const fragments = fragmentsOf(items);
  return { items, fragments, bytes: body(fragments) };
});
// Warm-up on every input, so the first size measured does not pay for the compiler.
for (let i = 0; i < 3; i++) {
  for (const { fragments, bytes } of inputs) {
    await plain(bytes);
    await partial(bytes);
    parser(fragments);
  }
}
/** Per input, each contender's fastest round: the one the rest of the machine disturbed least. */
const costs = new Map<number, number>();
console.log(`partial tool input, fragments of ${FRAGMENT_LENGTH} characters, fastest of ${ROUNDS} rounds:`);
for (const { items, fragments, bytes } of inputs) {
  // The smaller input runs as many times as makes the larger one's items: each timing covers the
  // same work, long enough that a preemption does not make it.
  const times = Math.max(...SIZES) / items;
  const best = {
    plain: Number.POSITIVE_INFINITY,
    partial: Number.POSITIVE_INFINITY,
    parser: Number.POSITIVE_INFINITY,
  };
  for (let round = 0; round < ROUNDS; round++) {
    // Interleaved, so drift in machine load hits every contender alike.
    best.plain = Math.min(best.plain, (await timed(times, () => plain(bytes))) / times);
    best.partial = Math.min(best.partial, (await timed(times, () => partial(bytes))) / times);
    best.parser = Math.min(best.parser, (await timed(times, () => parser(fragments))) / times);
  }
  const added = best.partial - best.plain;
  costs.set(items, added);
  console.log(
    `  ${String(items).padStart(6)} items, ${fragments.length} fragments: plain stream ${best.plain.toFixed(1)} ms, ` +
      `with partial input ${best.partial.toFixed(1)} ms, @streamparser/json alone ${best.parser.toFixed(1)} ms`,
  );
  console.log(
    `         cost over the plain stream ${added.toFixed(1)} ms = x${(added / best.parser).toFixed(2)} @streamparser/json alone (goal: at most x2)`,
  );
}
const [fewer, more] = SIZES as [number, number];
const small = costs.get(fewer);
const large = costs.get(more);
if (small !== undefined && large !== undefined) {
  console.log(
    `  per-item cost of partial input ${fewer} -> ${more} items: x${(large / more / (small / fewer)).toFixed(2)} (goal: within x1.5)`,
  );
}
