import { REQUEST_ID_HEADER } from '@parley/protocol';
import type { Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { HttpError } from '../http-error.js';
import { withKnownText } from './known-text.js';
import type { AppEnv } from './server-context.js';

const JSON_TYPE = { 'Content-Type': 'application/json' } as const;

/**
 * A JSON response, as `c.json` makes it, whose text and value the request's `onResponseBody` hook
 * is told: a wrapper that records responses (the testing toolkit's journal) needs not read the body,
 * nor an adapter that writes it (see `knownText`).
 */
export function jsonReply(c: Context<AppEnv>, value: unknown, status: ContentfulStatusCode): Response {
  const text = JSON.stringify(value);
  c.env.onResponseBody?.(text, value);
  return withKnownText(c.body(text, status, JSON_TYPE), text);
}

/**
 * The response of an {@link HttpError} (its `toResponse()`), told to `onResponseBody` like
 * {@link jsonReply}; with `requestId`, stamped with it.
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
  return withKnownText(new Response(text, { status: error.status, headers }), text);
}
