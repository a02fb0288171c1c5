import type { ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { HttpError } from '../http-error.js';

// Node's own answers to bytes its HTTP parser cannot read, as its default `clientError` writes them.
const REFUSALS: Record<string, string> = {
  HPE_HEADER_OVERFLOW: 'HTTP/1.1 431 Request Header Fields Too Large\r\nConnection: close\r\n\r\n',
  HPE_CHUNK_EXTENSIONS_OVERFLOW: 'HTTP/1.1 413 Payload Too Large\r\nConnection: close\r\n\r\n',
  ERR_HTTP_REQUEST_TIMEOUT: 'HTTP/1.1 408 Request Timeout\r\nConnection: close\r\n\r\n',
};

/** A `400` with the protocol's error body, naming what the parser refused. */
function badRequest(error: Error & { code?: string }): string {
  const reason = error.message.replace(/^Parse Error: /, '');
  const body = JSON.stringify(
    new HttpError(
      'invalid_request',
      `The bytes on this connection are not an HTTP request: ${reason}${error.code ? ` (${error.code})` : ''}`,
    ).toBody(),
  );
  return (
    'HTTP/1.1 400 Bad Request\r\ncontent-type: application/json\r\n' +
    `content-length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`
  );
}

/** Node sets it on a socket to the response it is writing now (its default handler reads it too). */
type HttpSocket = Socket & { _httpMessage?: ServerResponse | null };

const refusing = new WeakSet<Socket>();

/**
 * The `clientError` listener of the node:http server: bytes on a connection that are not a valid
 * request. Node's default answers `400` and destroys the socket at once, even when a complete
 * request before those bytes is still being answered: that request runs (a `POST /v1/sessions`
 * with `Content-Length: 0` followed by stray bytes creates its session), yet the client only
 * ever sees the `400`. Here the requests received whole are answered first, in order (as HTTP/1.1
 * pipelining requires), and only then the `400`, and the connection is closed; so the client
 * learns of every change its requests made.
 */
export function answerClientError(error: Error & { code?: string }, socket: Socket): void {
  if (refusing.has(socket)) return; // more bytes after the first unreadable ones
  refusing.add(socket);
  const refuse = (): void => {
    const current = (socket as HttpSocket)._httpMessage;
    // A request received whole is answered first; the next one queued takes its place after it.
    if (current && !current.writableFinished && !current.destroyed && current.req.complete) {
      current.once('close', refuse);
      return;
    }
    if (socket.writable && !current?.headersSent) {
      socket.end(REFUSALS[error.code ?? ''] ?? badRequest(error));
      socket.destroySoon();
    } else socket.destroy();
  };
  refuse();
}

/**
 * The answer to a request node:http read but `@hono/node-server` could not make a `Request` of (its
 * `RequestError`: `OPTIONS *`, a backslash in the path, a Host header that is no host): `400
 * invalid_request` with the protocol's error body. Anything else thrown on the way in is `500
 * internal_error`; an answer is always given (none would leave the request open).
 */
export function unreadableRequest(error: unknown): Response {
  if (error instanceof Error && error.name === 'RequestError') {
    return new HttpError(
      'invalid_request',
      `The request's URL could not be read: ${error.message}`,
    ).toResponse();
  }
  console.error('[parley] internal error:', error);
  return new HttpError('internal_error', 'An unexpected server failure').toResponse();
}
