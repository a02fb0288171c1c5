// Benchmark: what partial tool input (`partialInput()` and a `toolInputDelta` listener) adds to a
// streamed reply, against @streamparser/json alone fed the same fragments, in the same run. The
// reply carries one tool call whose input is an array of small items, in fragments of 4
// characters (the reference server's default). The contenders, interleaved per round:
//   plain     the stream without the option (every event parsed and delivered, input joined once)
//   every     the same stream with `partialInput()` and a listener that reads `partial` on every
//             delta (as the docs' examples do: `({ partial }) => ...`)
//   frame     the same, reading `partial` on every 256th delta and the last (a UI that renders
//             the newest input once a frame)
//   snapshot  the same, taking a `snapshot()` on every 256th delta and the last (a UI that keeps
//             a copy of the input in its state once a frame: each copies the items so far)
//   parser    @streamparser/json alone, fed the fragments, its values dropped
// The cost of partial input is a pattern's time minus `plain`; it is printed as a ratio of
// `parser` (goal: at most 3), and the growth of each pattern's time per doubling of the items
// from 4k to 32k (goal for reading `partial`: at most x2.3, linear), from each contender's
// fastest round (on a shared machine, the round least disturbed). Times are CPU time, not wall
// time. Prints, never asserts.
// Run: npx tsx --expose-gc --conditions=@parley/source packages/sdk/bench/partial-input.ts (also in
// `pnpm bench`).
// BENCH_ROUNDS=n changes the rounds.
import { Parley } from '@parley/sdk';
import { partialInput, type ToolInputDelta } from '@parley/sdk/partial-input';
import { JSONParser } from '@streamparser/json';

const SIZES = [4_000, 8_000, 16_000, 32_000];
const FRAGMENT_LENGTH = 4;
const READ_EVERY = 256;
const CHUNK_BYTES = 16 * 1024;
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);

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

/** The stream with partial input, `read` called with each delta and its count. */
async function withPartialInput(
  bytes: Uint8Array,
  read: (delta: ToolInputDelta, count: number) => number,
): Promise<void> {
  const stream = client(bytes).messages.stream(
    'sess_bench',
    { content: 'x' },
    { partialInput: partialInput() },
  );
  let deltas = 0;
  let seen = 0;
  let last: ToolInputDelta | undefined;
  stream.on('toolInputDelta', (delta) => {
    last = delta;
    seen += read(delta, ++deltas);
  });
  await stream.finalReply();
  if (last) seen += read(last, READ_EVERY);
  if (seen === 0) throw new Error('no deltas');
}

/** Items read so far. */
function itemsIn(input: unknown): number {
  return ((input as { items?: unknown[] }).items?.length ?? 0) + 1;
}

/** The reading patterns, by name: what a listener does with a delta and its count. */
const PATTERNS = {
  every: {
    label: '`partial` on every delta',
    read: ({ name, fragment, partial }: ToolInputDelta) => name.length + fragment.length + itemsIn(partial),
  },
  frame: {
    label: `\`partial\` every ${READ_EVERY}th delta`,
    read: (delta: ToolInputDelta, count: number) =>
      delta.name.length + delta.fragment.length + (count % READ_EVERY === 0 ? itemsIn(delta.partial) : 0),
  },
  snapshot: {
    label: `snapshot() every ${READ_EVERY}th delta`,
    read: (delta: ToolInputDelta, count: number) =>
      delta.name.length + delta.fragment.length + (count % READ_EVERY === 0 ? itemsIn(delta.snapshot()) : 0),
  },
};
type Pattern = keyof typeof PATTERNS;
const patterns = Object.keys(PATTERNS) as Pattern[];

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
 * The CPU time of `times` runs in a row, in ms (the process's user and system time: on a shared
 * machine, time spent waiting for a core is not counted), after a collection (with --expose-gc)
 * so that one contender's garbage is not collected in another's time.
 */
async function timed(times: number, run: () => unknown): Promise<number> {
  gc?.();
  const start = process.cpuUsage();
  for (let i = 0; i < times; i++) await run();
  const { user, system } = process.cpuUsage(start);
  return (user + system) / 1000;
}

const inputs = SIZES.map((items) => {
  const fragments = fragmentsOf(items);
  return { items, fragments, bytes: body(fragments) };
});
// Warm-up on the smallest input, so the first size measured does not pay for the compiler.
const [smallest] = inputs;
for (let i = 0; smallest && i < 5; i++) {
  await plain(smallest.bytes);
  for (const pattern of patterns) await withPartialInput(smallest.bytes, PATTERNS[pattern].read);
  parser(smallest.fragments);
}
type Best = Record<Pattern | 'plain' | 'parser', number>;
/** Per input, each contender's fastest round: the one the rest of the machine disturbed least. */
const results = new Map<number, Best>();
const ms = (value: number) => `${value.toFixed(1)} ms`;
console.log(
  `partial tool input, fragments of ${FRAGMENT_LENGTH} characters, CPU time, fastest of ${ROUNDS} rounds:`,
);
for (const { items, fragments, bytes } of inputs) {
  // The smaller input runs as many times as makes the larger one's items: each timing covers the
  // same work, long enough that a preemption does not make it.
  const times = Math.max(...SIZES) / items;
  const best: Best = {
    plain: Infinity,
    every: Infinity,
    frame: Infinity,
    snapshot: Infinity,
    parser: Infinity,
  };
  for (let round = 0; round < ROUNDS; round++) {
    // Interleaved, so drift in machine load hits every contender alike.
    best.plain = Math.min(best.plain, (await timed(times, () => plain(bytes))) / times);
    for (const pattern of patterns) {
      const time = await timed(times, () => withPartialInput(bytes, PATTERNS[pattern].read));
      best[pattern] = Math.min(best[pattern], time / times);
    }
    best.parser = Math.min(best.parser, (await timed(times, () => parser(fragments))) / times);
  }
  results.set(items, best);
  console.log(
    `  ${String(items).padStart(6)} items, ${fragments.length} fragments: plain stream ${ms(best.plain)}, ` +
      `@streamparser/json alone ${ms(best.parser)}`,
  );
  for (const pattern of patterns) {
    const added = best[pattern] - best.plain;
    console.log(
      `    ${PATTERNS[pattern].label.padEnd(28)} ${ms(best[pattern]).padStart(10)}, over the plain stream ` +
        `${ms(added).padStart(9)} = x${(added / best.parser).toFixed(2)} @streamparser/json alone` +
        (pattern === 'snapshot' ? '' : ' (goal: at most x3)'),
    );
  }
}
console.log(`  time per doubling of the items, ${SIZES.join(' -> ')}:`);
for (const pattern of patterns) {
  const growth: string[] = [];
  for (let i = 1; i < SIZES.length; i++) {
    const before = results.get(SIZES[i - 1] as number);
    const after = results.get(SIZES[i] as number);
    if (before && after) growth.push(`x${(after[pattern] / before[pattern]).toFixed(2)}`);
  }
  console.log(
    `    ${PATTERNS[pattern].label.padEnd(28)} ${growth.join(', ')}` +
      (pattern === 'snapshot' ? ' (each snapshot copies the items so far)' : ' (goal: at most x2.3 each)'),
  );
}
