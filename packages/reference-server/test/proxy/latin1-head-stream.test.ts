import { IncomingMessage, ServerResponse } from 'node:http';
import { Socket } from 'node:net';
import { describe, expect, it } from 'vitest';
import { writeLatin1HeadStream } from '../../src/adapters/latin1-head-stream.js';
import { stillPending } from '../testing/helpers.js';

// A proxied stream whose upstream sent a header byte 0x80-0xff is written by this function, not
// by the adapter: the node:http response is stood in for, so the client's leaving falls exactly
// while a write waits for `drain`.
describe('a proxied stream written with a latin1 head', () => {
  it('a client that leaves while a write waits for drain ends the write (no wait for a drain that never comes)', async () => {
    const outgoing = new ServerResponse(new IncomingMessage(new Socket()));
    outgoing.writeHead = () => outgoing;
    // The socket is full: every write asks the writer to wait for drain.
    outgoing.write = () => false;
    outgoing.end = () => outgoing;
    outgoing.destroy = () => outgoing;
    let cancelled = false;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        controller.enqueue(new Uint8Array(16));
      },
      cancel() {
        cancelled = true;
      },
    });
    const response = new Response(body, { headers: { 'x-upstream': 'caf\u00e9' } });
    const writing = writeLatin1HeadStream(response, outgoing);
    expect(await stillPending(writing)).toBe(true);
    outgoing.emit('close');
    expect(await stillPending(writing)).toBe(false);
    expect(cancelled).toBe(true);
    expect(outgoing.listenerCount('drain') + outgoing.listenerCount('close')).toBe(0);
  });
});
