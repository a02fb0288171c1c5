import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ClientWatch, Connection } from '../http/connection.js';

/**
 * The node:http connection of one request, lent to the core: an injected drop destroys its socket,
 * a body is read off the `IncomingMessage` into one buffer (the `Buffer` the socket gave when the
 * body came in one chunk), with no web stream and no `ArrayBuffer` copy, and the client's leaving
 * is heard on the response, with no `AbortSignal` made for the request.
 */
export class NodeConnection implements Connection {
  constructor(
    private readonly incoming: IncomingMessage,
    private readonly outgoing: ServerResponse,
  ) {}

  get remoteAddress(): string | undefined {
    return this.incoming.socket.remoteAddress;
  }

  drop(): void {
    // Let the adapter write what it already has (headers, events), flush it, then close the
    // connection without finishing the response.
    setImmediate(() => this.incoming.socket.destroySoon());
  }

  /** The client left when the response closes before it finished (as @hono/node-server tells it). */
  watchClient(listener: () => void): ClientWatch {
    const { outgoing } = this;
    if (outgoing.destroyed && !outgoing.writableFinished) return { goneBefore: true, stop: () => {} };
    const onClose = () => {
      if (!outgoing.writableFinished) listener();
    };
    outgoing.once('close', onClose);
    return { goneBefore: false, stop: () => outgoing.off('close', onClose) };
  }

  bodyless(): boolean {
    // RFC 9112 6.3: a request with neither header has no body, and node:http reads none.
    const { headers } = this.incoming;
    return headers['content-length'] === undefined && headers['transfer-encoding'] === undefined;
  }

  readBody(): Promise<Uint8Array> | undefined {
    const { incoming } = this;
    // Someone read it already, or the client is gone: the Request's own reader says how it failed.
    if (incoming.readableDidRead || incoming.destroyed) return undefined;
    return readIncoming(incoming);
  }
}

/** The whole body of `incoming`; rejects if the client leaves (or the stream fails) before its end. */
function readIncoming(incoming: IncomingMessage): Promise<Uint8Array> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    const onData = (chunk: Buffer) => {
      chunks.push(chunk);
    };
    const onEnd = () => {
      cleanup();
      resolve(chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks));
    };
    const onError = (error: Error) => {
      cleanup();
      reject(error);
    };
    const onClose = () => {
      if (incoming.readableEnded) onEnd();
      else onError(new Error('The client closed the connection before the whole body came in'));
    };
    const cleanup = () => {
      incoming.off('data', onData);
      incoming.off('end', onEnd);
      incoming.off('error', onError);
      incoming.off('close', onClose);
    };
    incoming.on('data', onData);
    incoming.on('end', onEnd);
    incoming.on('error', onError);
    incoming.on('close', onClose);
  });
}
