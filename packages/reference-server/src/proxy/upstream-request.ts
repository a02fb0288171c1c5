import { connectionOf } from '../http/connection.js';
import { HttpError } from '../http-error.js';

/** Request header fields that belong to one hop, or to the proxy itself: never forwarded. */
const NOT_FORWARDED = new Set([
  'authorization',
  'connection',
  'content-length',
  'host',
  'keep-alive',
  'proxy-authorization',
  'proxy-connection',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
  'x-parley-control-token',
  'x-parley-fault',
  'x-parley-test-id',
]);

/** Response header fields the proxy does not pass on: the hop's own, and the length it recomputes. */
const NOT_RETURNED = new Set([
  'connection',
  'content-encoding',
  'content-length',
  'keep-alive',
  'proxy-connection',
  'trailer',
  'transfer-encoding',
  'upgrade',
]);

/**
 * The header fields to send upstream: the client's, minus hop-by-hop fields and the proxy's own, with
 * `authorization` as given (the client's or the upstream token). `accept-encoding: identity` asks
 * for a body the proxy can check and pass on as it came.
 */
export function upstreamHeaders(request: Request, authorization: string | null): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of request.headers) if (!NOT_FORWARDED.has(name)) headers[name] = value;
  headers['accept-encoding'] = 'identity';
  if (authorization !== null) headers.authorization = authorization;
  return headers;
}

/** The upstream's response header fields to pass on (lower-case names). */
export function returnedHeaders(received: Record<string, string>): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const name in received) if (!NOT_RETURNED.has(name)) fields[name] = received[name] as string;
  return fields;
}

/** Header fields as an exchange tells them: lower-case, never `authorization`. */
export function exchangeHeaders(headers: Headers | Record<string, string>): Record<string, string> {
  const fields: Record<string, string> = {};
  const entries = headers instanceof Headers ? headers.entries() : Object.entries(headers);
  for (const [name, value] of entries) {
    const lower = name.toLowerCase();
    if (lower !== 'authorization' && lower !== 'x-parley-control-token') fields[lower] = value;
  }
  return fields;
}

/** The path and query of an absolute URL (`/v1/sessions?x=1`). */
export function pathAndQuery(url: string): string {
  const scheme = url.indexOf('://');
  const start = url.indexOf('/', scheme === -1 ? 0 : scheme + 3);
  if (start === -1) return '/';
  const hash = url.indexOf('#', start);
  return hash === -1 ? url.slice(start) : url.slice(start, hash);
}

const EMPTY = new Uint8Array(0);

/**
 * The request's body bytes (off the connection when the adapter lent one), at most `maxBytes`:
 * a larger body is `413 payload_too_large`, as the server answers it.
 */
export async function readRequestBytes(request: Request, maxBytes: number): Promise<Uint8Array> {
  const method = request.method;
  if (method === 'GET' || method === 'HEAD') return EMPTY;
  const header = request.headers.get('content-length');
  const declared = header === null ? Number.NaN : Number(header);
  const tooLarge = () =>
    new HttpError('payload_too_large', `The body is larger than ${maxBytes} bytes`, {
      details: { maxBytes },
    });
  if (declared > maxBytes) throw tooLarge();
  if (declared === 0) return EMPTY;
  // The connection first: reading `body` of a request over node:http makes a web stream.
  const connection = Number.isSafeInteger(declared) ? connectionOf(request) : undefined;
  if (connection === undefined && request.body === null) return EMPTY;
  let bytes: Uint8Array;
  try {
    bytes = (await connection?.readBody()) ?? new Uint8Array(await request.arrayBuffer());
  } catch (error) {
    throw new HttpError('invalid_request', 'The request body could not be read', { cause: error });
  }
  if (bytes.byteLength > maxBytes) throw tooLarge();
  return bytes;
}
