// The routes the SDK sends, as the service's OpenAPI document names them (a test checks each one
// against the document, and that every resource method's path matches one).
const ROUTES = [
  '/v1/sessions',
  '/v1/sessions/{sessionId}',
  '/v1/messages/{sessionId}',
  '/v1/messages/{sessionId}/stream',
  '/v1/messages/{sessionId}/rewind',
  '/v1/tools/request/{sessionId}/{requestId}',
  '/v1/tools/request/{sessionId}/{requestId}/heartbeat',
  '/v1/tools/response/{sessionId}/{requestId}',
].map((route) => ({
  route,
  // A placeholder (`{sessionId}`) matches any segment: `undefined`.
  segments: route
    .slice(1)
    .split('/')
    .map((segment) => (segment.startsWith('{') ? undefined : segment)),
}));

/**
 * The route template of a path below the base URL (`v1/messages/sess_1/stream` is
 * `/v1/messages/{sessionId}/stream`): the span's `url.template` and name, so that the calls of one
 * route group together whatever their ids. `undefined` for a path of no known route.
 */
export function routeTemplate(path: string): string | undefined {
  const segments = path.split('/');
  for (const { route, segments: expected } of ROUTES) {
    if (expected.length !== segments.length) continue;
    let i = 0;
    while (i < segments.length && (expected[i] === undefined || expected[i] === segments[i])) i++;
    if (i === segments.length) return route;
  }
  return undefined;
}
