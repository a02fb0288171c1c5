import { JSONParser } from '@streamparser/json';
import { partialJsonParser } from '../src/streaming/partial-json.js';
const items = Number(process.argv[2] ?? 10000);
const input = JSON.stringify({ items: Array.from({ length: items }, (_, i) => ({ id: i, name: `item ${i}`, done: i % 2 === 0 })) });
const fragments: string[] = [];
for (let at = 0; at < input.length; at += 4) fragments.push(input.slice(at, at + 4));
for (let r = 0; r < 6; r++) {
  let t = performance.now();
  const j = new JSONParser({ emitPartialTokens: true, emitPartialValues: true });
  let v = 0; j.onValue = () => { v++; };
  for (const f of fragments) j.write(f);
  const raw = performance.now() - t;
  t = performance.now();
  const p = partialJsonParser();
  for (const f of fragments) p(f);
  const ours = performance.now() - t;
  console.log(items, 'raw', raw.toFixed(1), 'ours', ours.toFixed(1), (ours / raw).toFixed(2));
}
