// Heap figures, in process (run with --expose-gc; the bench starts it as a child process):
// - heap per stored message against its payload, journal included;
// - 100 user messages of about 1 MiB: heap beyond the stored messages' text;
// - 30 exports of a 20 MiB session and a long streamed reply, then the session deleted: what stays.
import { createReferenceServer, type ReferenceServer } from '@parley/reference-server';

const headers = { authorization: 'Bearer parley-demo-token', 'content-type': 'application/json' };
const MiB = 1024 * 1024;

function gc(): number {
  const collect = globalThis.gc;
  if (collect === undefined) throw new Error('run with --expose-gc');
  for (let i = 0; i < 4; i++) collect();
  return process.memoryUsage().heapUsed;
}

async function call(server: ReferenceServer, method: string, path: string, body?: unknown): Promise<string> {
  const response = await server.fetch(
    new Request(`http://bench.test${path}`, {
      method,
      headers,
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    }),
  );
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${text.slice(0, 200)}`);
  return text;
}

/** A session; `full`: a Full session (a model, no agent), whose replies no agent's maxTokens cuts. */
async function createSession(server: ReferenceServer, full = false): Promise<string> {
  const body = full ? { customizations: { model: 'parley-stand-in-1' } } : {};
  return (JSON.parse(await call(server, 'POST', '/v1/sessions', body)) as { sessionId: string }).sessionId;
}

interface Exported {
  messages: Array<{ content: Array<{ text?: string }> }>;
}

/** Text characters and JSON bytes (as an export carries them) of a session's stored messages. */
async function storedSize(
  server: ReferenceServer,
  sessionId: string,
): Promise<{ text: number; json: number; count: number }> {
  const exported = JSON.parse(await call(server, 'GET', `/v1/messages/${sessionId}`)) as Exported;
  let text = 0;
  let json = 0;
  for (const message of exported.messages) {
    json += JSON.stringify(message).length;
    for (const block of message.content) text += block.text?.length ?? 0;
  }
  return { text, json, count: exported.messages.length };
}

export interface PerMessageResult {
  messages: number;
  heapPerMessage: number;
  jsonPerMessage: number;
  textPerMessage: number;
}

/**
 * Heap per stored message (user turns of ~200 characters and the stand-in's echo, 100 sessions),
 * journal included: the server keeps its journal at its default bounds throughout.
 */
export async function heapPerMessage(sends = 10_000, sessions = 100): Promise<PerMessageResult> {
  const server = createReferenceServer();
  // Warm-up on sessions deleted afterwards: the code the JIT makes is not per message.
  for (let i = 0; i < 500; i++) {
    const id = await createSession(server);
    await call(server, 'POST', `/v1/messages/${id}`, { content: `warm-up ${i}` });
    await call(server, 'DELETE', `/v1/sessions/${id}`);
  }
  server.journal.clear();
  const ids: string[] = [];
  for (let i = 0; i < sessions; i++) ids.push(await createSession(server));
  const before = gc();
  const filler = 'The quick brown fox jumps over the lazy dog and runs far away. '.repeat(3);
  for (let i = 0; i < sends; i++) {
    await call(server, 'POST', `/v1/messages/${ids[i % sessions]}`, { content: `${filler}Message ${i}.` });
  }
  const after = gc();
  let text = 0;
  let json = 0;
  let count = 0;
  for (const id of ids) {
    const size = await storedSize(server, id);
    text += size.text;
    json += size.json;
    count += size.count;
  }
  await server.close();
  return {
    messages: count,
    heapPerMessage: (after - before) / count,
    jsonPerMessage: json / count,
    textPerMessage: text / count,
  };
}

/** ~1 MiB of text in words of about 100 characters. */
function bigText(seed: number): string {
  const word = `${'x'.repeat(96)}${String(seed % 1000).padStart(3, '0')}`;
  return Array.from({ length: Math.floor(1_000_000 / 100) }, () => word).join(' ');
}

export interface LargeBodiesResult {
  sends: number;
  bodyBytes: number;
  storedText: number;
  heap: number;
  /** (heap - stored text) / (sends * body): how many copies of a body the server keeps beyond the messages. */
  copiesBeyondStored: number;
}

/** 100 user messages of about 1 MiB to one session: heap beyond the stored messages' text. */
export async function largeBodies(sends = 100): Promise<LargeBodiesResult> {
  const server = createReferenceServer();
  const sessionId = await createSession(server, true);
  const before = gc();
  let bodyBytes = 0;
  for (let i = 0; i < sends; i++) {
    const content = bigText(i);
    bodyBytes = content.length;
    await call(server, 'POST', `/v1/messages/${sessionId}`, { content });
  }
  const heap = gc() - before;
  const stored = await storedSize(server, sessionId);
  await server.close();
  return {
    sends,
    bodyBytes,
    storedText: stored.text,
    heap,
    copiesBeyondStored: (heap - stored.text) / (sends * bodyBytes),
  };
}

export interface ExportsResult {
  sessionBytes: number;
  exports: number;
  /** Heap the exports left, all together. */
  retainedByExports: number;
  afterDelete: number;
}

/**
 * A session of about 20 MiB (exported JSON), 30 exports of it and one long streamed reply; then the
 * session is deleted. What each export leaves on the heap, and the heap over the baseline after the
 * delete.
 */
export async function exportsThenDelete(exports = 30): Promise<ExportsResult> {
  const server = createReferenceServer();
  const baseline = gc();
  const sessionId = await createSession(server, true);
  for (let i = 0; i < 10; i++)
    await call(server, 'POST', `/v1/messages/${sessionId}`, { content: bigText(i) });
  const words = Array.from({ length: 50_000 }, (_, i) => `w${i}`).join(' ');
  await call(server, 'POST', `/v1/messages/${sessionId}/stream`, { content: `/say ${words}` });
  const sessionBytes = (await storedSize(server, sessionId)).json;
  const beforeExports = gc();
  for (let i = 0; i < exports; i++) await call(server, 'GET', `/v1/messages/${sessionId}`);
  // One small request after them: the last response stays reachable from the last call's frame
  // until another one runs, whatever the server keeps.
  await call(server, 'GET', '/v1/sessions');
  const afterExports = gc();
  await call(server, 'DELETE', `/v1/sessions/${sessionId}`);
  const afterDelete = gc() - baseline;
  await server.close();
  return { sessionBytes, exports, retainedByExports: afterExports - beforeExports, afterDelete };
}

/** Runs every heap part; each in a fresh server. */
export async function benchHeap() {
  return {
    perMessage: await heapPerMessage(),
    largeBodies: await largeBodies(),
    exports: await exportsThenDelete(),
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const part = process.argv[2];
  const result =
    part === 'exports'
      ? { exports: await exportsThenDelete(Number(process.argv[3] ?? 30)) }
      : await benchHeap();
  if (process.send !== undefined) process.send(result);
  else console.log(JSON.stringify(result, null, 2), `(MiB = ${MiB} bytes)`);
}
