import { Parley } from '@parley/sdk';
import { partialInput } from '@parley/sdk/partial-input';
const items = Number(process.argv[2] ?? 10000);
const input = JSON.stringify({ items: Array.from({ length: items }, (_, i) => ({ id: i, name: `item ${i}`, done: i % 2 === 0 })) });
const fragments: string[] = [];
for (let at = 0; at < input.length; at += 4) fragments.push(input.slice(at, at + 4));
const id = 'tooluse_bench';
const events: unknown[] = [
  { messageStart: { role: 'assistant', index: 1 } },
  { contentBlockStart: { contentBlockIndex: 0, start: { toolUse: { toolUseId: id, name: 'bulk' } } } },
  ...fragments.map((input) => ({ contentBlockDelta: { contentBlockIndex: 0, delta: { toolUse: { input } } } })),
  { contentBlockStop: { contentBlockIndex: 0 } },
  { messageStop: { stopReason: 'tool_use' } },
  { replyStop: { messages: [{ role: 'assistant', index: 1, content: [{ type: 'tool_use', id, name: 'bulk', input: {} }], deletedAt: null, createdAt: 0 }], stopReason: 'tool_use', pendingTools: [], heartbeatTimeoutMs: 15000 } },
];
const bytes = new TextEncoder().encode(JSON.stringify({ sessionId: 'sess_bench', events }));
const mode = process.argv[3] ?? 'partial';
for (let r = 0; r < 3; r++) {
  const client = new Parley({ baseUrl: 'http://bench.test', token: 't', fetch: async () => new Response(bytes) });
  const t = performance.now();
  const stream = client.messages.stream('s', { content: 'x' }, mode === 'partial' ? { partialInput: partialInput() } : {});
  let n = 0;
  if (mode === 'partial') stream.on('toolInputDelta', (d) => { n += d.fragment.length; });
  await stream.finalReply();
  console.log(mode, (performance.now() - t).toFixed(0));
}
