import type { Context } from 'hono';
import { HttpError } from '../http-error.js';
import { readJsonBody } from './json-body.js';
import type { AppEnv } from './server-context.js';

/**
 * A route's JSON body, read with {@link readJsonBody} and told to the request's `onBody` hook (the
 * testing toolkit's journal keeps what the route read; nothing else reads the body).
 */
export function readRouteBody(c: Context<AppEnv>, maxBytes: number): Promise<unknown> {
  const hooks = c.env;
  // Called as a method of the hooks: they may be an object whose methods use `this`.
  const observe =
    hooks.onBody === undefined
      ? undefined
      : (text: string, truncated: boolean, value?: unknown) => hooks.onBody?.(text, truncated, value);
  return readJsonBody(c.req.raw, maxBytes, observe);
}

/**
 * A route's body as a JSON object. Only an absent or empty body means "no body" (`undefined`, or
 * `400 invalid_request` when `required`); `null`, an array or any other non-object is
 * `400 invalid_request`.
 */
export async function readObjectBody(
  c: Context<AppEnv>,
  maxBytes: number,
  options: { required: boolean },
): Promise<Record<string, unknown> | undefined> {
  const body = await readRouteBody(c, maxBytes);
  if (body === undefined && !options.required) return undefined;
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    const got =
      body === undefined
        ? 'no body'
        : body === null
          ? 'null'
          : Array.isArray(body)
            ? 'an array'
            : typeof body;
    throw new HttpError('invalid_request', `(body): the body must be a JSON object (got ${got})`, {
      details: { issues: [{ path: '(body)', message: `the body must be a JSON object (got ${got})` }] },
    });
  }
  return body as Record<string, unknown>;
}
