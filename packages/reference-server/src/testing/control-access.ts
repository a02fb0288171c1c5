import type { MiddlewareHandler } from 'hono';
import { HttpError } from '../http-error.js';
import { constantTimeEqual } from '../utils/constant-time-equal.js';

/** The request header that carries the control token to the `/_parley/` routes. */
export const CONTROL_TOKEN_HEADER = 'x-parley-control-token';

/** Visible ASCII, no spaces: a token a header and a URL fragment carry as it is. */
const CONTROL_TOKEN = /^[\x21-\x7e]+$/;

/** The shortest control token accepted: a shorter one is guessed too easily. */
export const MIN_CONTROL_TOKEN_LENGTH = 16;

/**
 * What is wrong with a control token someone chose, as the end of a sentence (`must be ...`), or
 * `undefined` when it will do.
 */
export function controlTokenProblem(token: string): string | undefined {
  if (!CONTROL_TOKEN.test(token)) return 'must be visible ASCII characters, no spaces';
  if (token.length < MIN_CONTROL_TOKEN_LENGTH) {
    return (
      `must be at least ${MIN_CONTROL_TOKEN_LENGTH} characters (got ${token.length}): a short one is guessed ` +
      'too easily; leave it out for a random one'
    );
  }
  return undefined;
}

/** What a request's control token header says (`ControlTokenGuard` judges it). */
export type ControlTokenCheck =
  | { kind: 'valid' }
  | { kind: 'absent' }
  /** A wrong token: answered after `delayMs` (0 for the first few of a client). */
  | { kind: 'invalid'; delayMs: number };

/** A fresh control token: `pct_` and 32 hex digits (128 random bits). */
export function generateControlToken(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return `pct_${Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('')}`;
}

/**
 * Whether a request carries the control token in {@link CONTROL_TOKEN_HEADER}, compared in
 * constant time.
 *
 * @throws TypeError when the token is shorter than {@link MIN_CONTROL_TOKEN_LENGTH} characters or
 * holds a space or a non-ASCII character.
 */
export function controlTokenMatcher(token: string): (request: Request) => boolean {
  const problem = controlTokenProblem(token);
  if (problem !== undefined) throw new TypeError(`The control token ${problem}`);
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
 * `401 invalid_control_token`, answered slowly after too many wrong ones), and no body but JSON
 * (`415 unsupported_media_type`). A browser can
 * send neither that header nor a JSON body to another origin without a CORS preflight, so a page
 * that does not hold the token changes nothing. `open` requests (the journal page's static shell)
 * pass without a token.
 */
export function controlAccess(
  checkToken: (request: Request) => Promise<ControlTokenCheck>,
  open: (method: string, path: string) => boolean,
): MiddlewareHandler {
  return async (c, next) => {
    if (open(c.req.method, c.req.path)) return next();
    const check = await checkToken(c.req.raw);
    if (check.kind === 'absent') {
      throw new HttpError(
        'control_token_required',
        `The control routes need the ${CONTROL_TOKEN_HEADER} header (the control token the server printed)`,
      );
    }
    if (check.kind === 'invalid') {
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
