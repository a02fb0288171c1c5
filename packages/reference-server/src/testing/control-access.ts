import type { MiddlewareHandler } from 'hono';
import { HttpError } from '../http-error.js';
import { constantTimeEqual } from '../utils/constant-time-equal.js';

/** The request header that carries the control token to the `/_parley/` routes. */
export const CONTROL_TOKEN_HEADER = 'x-parley-control-token';

/** Visible ASCII, no spaces: a token a header and a URL fragment carry as it is. */
const CONTROL_TOKEN = /^[\x21-\x7e]+$/;

/** A fresh control token: `pct_` and 32 hex digits (128 random bits). */
export function generateControlToken(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return `pct_${Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('')}`;
}

/**
 * Whether a request carries the control token in {@link CONTROL_TOKEN_HEADER}, compared in
 * constant time.
 *
 * @throws TypeError when the token is empty or holds a space or a non-ASCII character.
 */
export function controlTokenMatcher(token: string): (request: Request) => boolean {
  if (!CONTROL_TOKEN.test(token)) {
    throw new TypeError('The control token must be visible ASCII characters, no spaces');
  }
  const expected = new TextEncoder().encode(token);
  return (request) => {
    const presented = request.headers.get(CONTROL_TOKEN_HEADER);
    return presented !== null && constantTimeEqual(new TextEncoder().encode(presented), expected);
  };
}

const JSON_TYPE = /^application\/json\s*(?:;|$)/i;

/** Whether the request's `content-type` is `application/json` (any parameters). */
export function isJsonContentType(request: Request): boolean {
  const type = request.headers.get('content-type');
  return type !== null && JSON_TYPE.test(type);
}

/**
 * The gate of the control routes: the control token in its header (`401 control_token_required`,
 * `401 invalid_control_token`), and no body but JSON (`415 unsupported_media_type`). A browser can
 * send neither that header nor a JSON body to another origin without a CORS preflight, so a page
 * that does not hold the token changes nothing. `open` requests (the journal page's static shell)
 * pass without a token.
 */
export function controlAccess(
  hasToken: (request: Request) => boolean,
  open: (method: string, path: string) => boolean,
): MiddlewareHandler {
  return async (c, next) => {
    if (open(c.req.method, c.req.path)) return next();
    if (!c.req.raw.headers.has(CONTROL_TOKEN_HEADER)) {
      throw new HttpError(
        'control_token_required',
        `The control routes need the ${CONTROL_TOKEN_HEADER} header (the control token the server printed)`,
      );
    }
    if (!hasToken(c.req.raw)) {
      throw new HttpError(
        'invalid_control_token',
        `The ${CONTROL_TOKEN_HEADER} header is not the control token`,
      );
    }
    if (c.req.raw.headers.has('content-type') && !isJsonContentType(c.req.raw)) {
      throw new HttpError(
        'unsupported_media_type',
        'The control routes take JSON bodies only (application/json)',
      );
    }
    return next();
  };
}
