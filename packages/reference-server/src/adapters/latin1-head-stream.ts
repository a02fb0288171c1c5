import type { ServerResponse } from 'node:http';

const EMPTY = Buffer.alloc(0);
const NOT_ASCII = /[\u0080-\u00ff]/;

/**
 * Whether a streamed response has to be written here rather than by @hono/node-server: a header
 * value holds bytes 0x80-0xff (a proxied upstream's header, one latin1 character per byte). The
 * adapter sends the head of a stream with node's `flushHeaders()`, which writes it as UTF-8 and so
 * re-encodes those bytes; written with a first chunk of bytes, node sends them as they are.
 */
export function needsLatin1Head(response: Response): boolean {
  if (response.body === null) return false;
  for (const [, value] of response.headers) if (NOT_ASCII.test(value)) return true;
  return false;
}

/**
 * Writes a streamed response: the head at once (as latin1, so header bytes pass unchanged), then
 * each chunk as it comes, waiting for `drain` when the client is slow. A failing body destroys the
 * connection, as the adapter does; a closed connection cancels the body.
 */
export async function writeLatin1HeadStream(response: Response, outgoing: ServerResponse): Promise<void> {
  const fields: Record<string, string | string[]> = {};
  const cookies: string[] = [];
  for (const [name, value] of response.headers) {
    if (name === 'set-cookie') cookies.push(value);
    else fields[name] = value;
  }
  if (cookies.length > 0) fields['set-cookie'] = cookies;
  const reader = (response.body as ReadableStream<Uint8Array>).getReader();
  const cancel = () => {
    reader.cancel().catch(() => {});
  };
  outgoing.on('close', cancel);
  try {
    outgoing.writeHead(response.status, fields);
    outgoing.write(EMPTY);
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      if (!outgoing.write(value) && !(await drained(outgoing))) return;
    }
    outgoing.end();
  } catch (error) {
    outgoing.destroy(error as Error);
  } finally {
    outgoing.off('close', cancel);
  }
}

/** Waits until `outgoing` wants more (true), or closes first, when no drain will come (false). */
function drained(outgoing: ServerResponse): Promise<boolean> {
  if (outgoing.destroyed) return Promise.resolve(false);
  return new Promise((resolve) => {
    const onDrain = () => done(true);
    const onClose = () => done(false);
    const done = (more: boolean) => {
      outgoing.off('drain', onDrain);
      outgoing.off('close', onClose);
      resolve(more);
    };
    outgoing.once('drain', onDrain);
    outgoing.once('close', onClose);
  });
}
