/**
 * Whether `request` is a CORS preflight: `OPTIONS` with `Access-Control-Request-Method`. A browser
 * sends it to ask whether a request may be made; it is not that request.
 */
export function isPreflight(request: Request): boolean {
  return request.method === 'OPTIONS' && request.headers.has('access-control-request-method');
}
