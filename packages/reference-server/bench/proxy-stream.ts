// A long streamed reply through the checking proxy (run with --expose-gc; the bench starts it as a
// child process): an upstream that writes the reply's events as its reader takes them, the proxy
// (startServer with `upstream`) and a client reading and dropping the chunks, all in this process.
// - heap: what stays on the heap (after a full GC) while a 10 MiB reply is half through, against
//   the heap before it: flat means no copy of the body is kept;
// - time: microseconds per event for a short and a 10x longer reply (linear = x1.0).
import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { startServer } from '@parley/reference-server/node';

const headers = { authorization: 'Bearer parley-demo-token', 'content-type': 'application/json' };
const MiB = 1024 * 1024;

function gc(): number {
  const collect = globalThis.gc;
  if (collect === undefined) throw new Error('run with --expose-gc');
  for (let i = 0; i < 4; i++) collect();
  return process.memoryUsage().heapUsed;
}

/** One event of about 100 bytes. */
function eventText(i: number): string {
  const words = `w${i} lorem ipsum dolor sit amet consectetur adipiscing elit`;
  return `{"contentBlockDelta":{"contentBlockIndex":0,"delta":{"text":"${words}"}}}`;
}

const REPLY_STOP = JSON.stringify({
  replyStop: { messages: [], stopReason: 'end_turn', pendingTools: [], heartbeatTimeoutMs: 15000 },
});

/** An upstream whose stream has `?events=N` events, written as fast as its reader takes them. */
async function startStreamingUpstream(): Promise<{ url: string; server: Server }> {
  const server = createServer((request, response) => {
    const count = Number(new URL(request.url ?? '/', 'http://x').searchParams.get('events'));
    request.resume();
    response.writeHead(200, { 'content-type': 'application/json' });
    response.write('{"sessionId":"sess_1","events":[\n{"messageStart":{"role":"assistant","index":1}}');
    let i = 0;
    const pump = () => {
      while (i < count) {
        // About 16 KiB per write, as a server flushing its buffer would.
        let chunk = '';
        for (let n = 0; n < 160 && i < count; n++, i++) chunk += `,\n${eventText(i)}`;
        if (!response.write(chunk)) {
          response.once('drain', pump);
          return;
        }
      }
      response.end(`,\n${REPLY_STOP}\n]}\n`);
    };
    pump();
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

/** Reads one streamed reply through the proxy; `onProgress` gets the bytes read so far now and then. */
async function streamOnce(
  url: string,
  events: number,
  onProgress?: (bytes: number) => void,
): Promise<number> {
  const response = await fetch(`${url}/v1/messages/sess_1/stream?events=${events}`, {
    method: 'POST',
    headers,
    body: '{}',
  });
  let bytes = 0;
  let next = MiB;
  for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
    bytes += chunk.byteLength;
    if (onProgress !== undefined && bytes >= next) {
      next += MiB;
      onProgress(bytes);
    }
  }
  if (response.status !== 200) throw new Error(`stream answered ${response.status}`);
  return bytes;
}

export interface ProxyStreamResult {
  bodyBytes: number;
  /** The most the heap held (after a full GC) during the long reply, over the heap before it. */
  heapGrowth: number;
  smallEvents: number;
  largeEvents: number;
  smallUsPerEvent: number;
  largeUsPerEvent: number;
  /** large / small per-event cost (linear = 1). */
  ratio: number;
  violations: number;
}

export async function benchProxyStream(
  smallEvents = 10_000,
  largeEvents = 100_000,
): Promise<ProxyStreamResult> {
  const upstream = await startStreamingUpstream();
  const proxy = await startServer({ port: 0, upstream: { url: upstream.url, log: () => {} } });
  try {
    const timed = async (events: number) => {
      const start = performance.now();
      await streamOnce(proxy.url, events);
      return ((performance.now() - start) * 1000) / events;
    };
    await timed(smallEvents); // warm-up
    const small: number[] = [];
    const large: number[] = [];
    for (let round = 0; round < 3; round++) {
      small.push(await timed(smallEvents));
      large.push(await timed(largeEvents));
    }
    proxy.server.journal.clear();
    const before = gc();
    let heapGrowth = 0;
    const bodyBytes = await streamOnce(proxy.url, largeEvents, () => {
      heapGrowth = Math.max(heapGrowth, gc() - before);
    });
    const mid = (values: number[]) => [...values].sort((a, b) => a - b)[1] as number;
    return {
      bodyBytes,
      heapGrowth,
      smallEvents,
      largeEvents,
      smallUsPerEvent: mid(small),
      largeUsPerEvent: mid(large),
      ratio: mid(large) / mid(small),
      violations: proxy.server.proxy?.report().violations ?? -1,
    };
  } finally {
    await proxy.close();
    upstream.server.closeAllConnections();
    upstream.server.close();
  }
}

if (process.send !== undefined) {
  process.send(await benchProxyStream());
  process.disconnect();
} else if (import.meta.url === `file://${process.argv[1]}`) {
  console.log(await benchProxyStream());
}
