import { REQUEST_ID_HEADER } from '@parley/protocol';

/** CORS: `true` allows every origin, a string or a list allows those origins, `false` turns it off. */
export type CorsOrigins = boolean | string | readonly string[];

/** The CORS headers of one server, for preflights and for every other response. */
export interface CorsPolicy {
  /** The answer to a preflight (`OPTIONS` with `Access-Control-Request-Method`), else undefined. */
  preflight(request: Request): Response | undefined;
  /** Adds the CORS headers of an actual response through `set`. */
  decorate(request: Request, set: SetHeader): void;
}

/** Sets (or, with `append`, adds to) one header field of a response. */
export type SetHeader = (name: string, value: string, append?: boolean) => void;

const ALLOW_METHODS = 'GET, POST, PUT, DELETE, OPTIONS';
const EXPOSE_HEADERS = [REQUEST_ID_HEADER, 'retry-after', 'retry-after-ms'].join(', ');
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/**
 * The server's CORS policy, or undefined for `false`. A preflight is answered on any path, before
 * authentication and the journal, and allows every request header it asks for: a header a page may
 * send is no secret, what guards the server is the token it must also carry (bearer or control).
 *
 * Hand-written rather than hono's `cors`: one policy decorates the responses of the core, of the
 * testing toolkit's faults and of the control routes, which do not all pass through a Hono context.
 */
export function corsPolicy(origins: CorsOrigins): CorsPolicy | undefined {
  if (origins === false) return undefined;
  const list = origins === true ? undefined : new Set(typeof origins === 'string' ? [origins] : origins);
  const allowOrigin = (request: Request): string | undefined => {
    if (list === undefined) return '*';
    const origin = request.headers.get('origin');
    return origin !== null && list.has(origin) ? origin : undefined;
  };
  const setOrigin = (request: Request, set: SetHeader) => {
    const origin = allowOrigin(request);
    if (origin !== undefined) set('access-control-allow-origin', origin);
    if (list !== undefined) set('vary', 'origin', true);
  };
  return {
    preflight(request) {
      if (request.method !== 'OPTIONS' || !request.headers.has('access-control-request-method')) {
        return undefined;
      }
      const headers = new Headers({
        'access-control-allow-methods': ALLOW_METHODS,
        'access-control-max-age': '600',
      });
      setOrigin(request, (name, value, append) =>
        append ? headers.append(name, value) : headers.set(name, value),
      );
      const asked = allowedRequestHeaders(request.headers.get('access-control-request-headers'));
      if (asked !== '') headers.set('access-control-allow-headers', asked);
      headers.append('vary', 'access-control-request-headers');
      return new Response(null, { status: 204, headers });
    },
    decorate(request, set) {
      setOrigin(request, set);
      set('access-control-expose-headers', EXPOSE_HEADERS);
    },
  };
}

/** The header names a preflight asks for, each a valid field name (others are left out). */
function allowedRequestHeaders(value: string | null): string {
  if (value === null) return '';
  return value
    .split(',')
    .map((name) => name.trim())
    .filter((name) => HEADER_NAME.test(name))
    .join(', ');
}
