import { HttpError } from '../http-error.js';

/**
 * The `route_not_found` of `method pathname`, with what to do when the path says it: a path that
 * starts with `/v1/v1/` came from a base URL that ends in `/v1` (clients add `/v1` themselves);
 * `hint` is the composition root's (e.g. that the control routes need `--control`).
 */
export function routeNotFound(method: string, pathname: string, hint?: string): HttpError {
  const doubled =
    pathname === '/v1/v1' || pathname.startsWith('/v1/v1/')
      ? 'the path has /v1 twice: give the base URL without /v1 (e.g. http://127.0.0.1:4010), the client adds /v1 itself'
      : undefined;
  const why = doubled ?? hint;
  return new HttpError(
    'route_not_found',
    `No endpoint at ${method} ${pathname}${why === undefined ? '' : `: ${why}`}`,
  );
}
