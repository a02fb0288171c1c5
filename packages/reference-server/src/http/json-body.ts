import { HttpError } from '../http-error.js';
import { connectionOf } from './connection.js';
import { jsonDepth, MAX_JSON_DEPTH } from './json-depth.js';

/**
 * Told the text of a body that was read: the whole text, or (`truncated`) the part read before
 * the body turned out too large; with `value`, the JSON value the text was parsed to (absent when
 * the text is not valid JSON within the limits). The journal records the body through it.
 */
export type BodyObserver = (text: string, truncated: boolean, value?: unknown) => void;

const EMPTY = new Uint8Array(0);
const utf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * Reads a JSON body, refusing more than `maxBytes` (`413 payload_too_large`) whether or not
 * `Content-Length` was sent: it stops reading (and cancels the body) as soon as the limit is
 * passed, so a body that stays open is not waited for. An empty body (no bytes) is `undefined`; a
 * body that is not JSON (whitespace only and not UTF-8 included) is `400 invalid_json`; JSON
 * nested deeper than {@link MAX_JSON_DEPTH} is `400 invalid_request`.
 *
 * A body whose `Content-Length` is declared (as over HTTP) is read in one go: off the connection
 * when the adapter lent one (node:http), else through the runtime's own reader rather than a web
 * stream; `Content-Length: 0`, or a request the connection says has no body, reads nothing at all.
 */
export async function readJsonBody(
  request: Request,
  maxBytes: number,
  observe?: BodyObserver,
): Promise<unknown> {
  const tooLarge = () =>
    new HttpError('payload_too_large', `The body is larger than ${maxBytes} bytes`, {
      details: { maxBytes },
    });
  // Not hono's bodyLimit: it rebuilds the Request, which @hono/node-server's requests do not survive.
  const header = request.headers.get('content-length');
  const declared = header === null ? Number.NaN : Number(header);
  if (declared > maxBytes) throw tooLarge();
  let bytes: Uint8Array;
  // No body at all (what curl and many clients send for a POST without data): over node:http the
  // connection says so, and no body stream is made (making one cost two thirds of such a request).
  if (declared === 0 || (header === null && connectionOf(request)?.bodyless() === true)) bytes = EMPTY;
  else if (Number.isSafeInteger(declared) && declared > 0) {
    bytes = await readDeclared(request);
    if (bytes.byteLength > maxBytes) {
      observe?.(new TextDecoder().decode(bytes.subarray(0, maxBytes)), true);
      throw tooLarge();
    }
  } else {
    if (request.body === null) return undefined;
    bytes = await readStream(request.body, maxBytes, observe, tooLarge);
  }
  let text: string;
  try {
    text = utf8.decode(bytes);
  } catch {
    observe?.(new TextDecoder().decode(bytes), false);
    throw new HttpError('invalid_json', 'The body is not valid UTF-8 JSON');
  }
  // Only a body of no bytes is "no body": whitespace alone is text that is not JSON.
  if (text === '') {
    observe?.(text, false);
    return undefined;
  }
  let value: unknown;
  try {
    value = JSON.parse(text) as unknown;
  } catch (error) {
    observe?.(text, false);
    const why = text.trim() === '' ? 'it is whitespace only' : (error as Error).message;
    throw new HttpError('invalid_json', `The body is not valid JSON: ${why}`);
  }
  if (jsonDepth(text, MAX_JSON_DEPTH) > MAX_JSON_DEPTH) {
    observe?.(text, false);
    throw new HttpError(
      'invalid_request',
      `The body is nested too deeply: at most ${MAX_JSON_DEPTH} levels of objects and arrays`,
      { details: { maxDepth: MAX_JSON_DEPTH } },
    );
  }
  observe?.(text, false, value);
  return value;
}

/** The whole body of a request that declared its length. */
async function readDeclared(request: Request): Promise<Uint8Array> {
  try {
    return (await connectionOf(request)?.readBody()) ?? new Uint8Array(await request.arrayBuffer());
  } catch (error) {
    throw new HttpError('invalid_request', 'The request body could not be read', { cause: error });
  }
}

/** Reads a body of unknown length, stopping (and cancelling it) as soon as it passes `maxBytes`. */
async function readStream(
  body: ReadableStream<Uint8Array>,
  maxBytes: number,
  observe: BodyObserver | undefined,
  tooLarge: () => HttpError,
): Promise<Uint8Array> {
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      chunks.push(value);
      if (size > maxBytes) {
        void reader.cancel().catch(() => {});
        observe?.(new TextDecoder().decode(concat(chunks, size).subarray(0, maxBytes)), true);
        throw tooLarge();
      }
    }
  } catch (error) {
    if (error instanceof HttpError) throw error;
    throw new HttpError('invalid_request', 'The request body could not be read', { cause: error });
  }
  return concat(chunks, size);
}

function concat(chunks: readonly Uint8Array[], size: number): Uint8Array {
  const bytes = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return bytes;
}
