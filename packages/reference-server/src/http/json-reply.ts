import { REQUEST_ID_HEADER } from '@parley/protocol';
import type { Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { HttpError } from '../http-error.js';
import type { AppEnv } from './server-context.js';
import { TextResponse } from './text-response.js';

/**
 * A JSON response, like `c.json`'s, whose text and value the request's `onResponseBody` hook is
 * told: a wrapper that records responses (the testing toolkit's journal) needs not read the body.
 * It is a {@link TextResponse}: no body stream unless someone asks for one, and an adapter writes
 * its text as it is. (Made here rather than by `c.json`, which always makes the stream; no
 * middleware of the app sets response headers before a route runs.)
 */
export function jsonReply(c: Context<AppEnv>, value: unknown, status: ContentfulStatusCode): Response {
  const text = JSON.stringify(value);
  c.env.onResponseBody?.(text, value);
  return new TextResponse(text, { status, headers: { 'content-type': 'application/json' } });
}

/**
 * The response of an {@link HttpError} (as its `toResponse()`), told to `onResponseBody` and made
 * like {@link jsonReply}; with `requestId`, stamped with it.
 */
export function errorReply(
  env: AppEnv['Bindings'] | undefined,
  error: HttpError,
  requestId?: string,
): Response {
  const value = error.toBody();
  const text = JSON.stringify(value);
  env?.onResponseBody?.(text, value);
  const headers: Record<string, string> = { 'content-type': 'application/json', ...error.headers };
  if (requestId !== undefined) headers[REQUEST_ID_HEADER] = requestId;
  return new TextResponse(text, { status: error.status, headers });
}
