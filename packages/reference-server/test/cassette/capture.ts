import type { ProxyExchange, ProxyObserver } from '../../src/proxy/proxy-exchange.js';

/** Milliseconds between two events of a captured stream: times from a counter, never the wall clock. */
export const EVENT_STEP_MS = 10;

/**
 * Stands in for the checking proxy: a `fetch` that passes each request to `upstream` and tells the
 * observers the exchange as the proxy would (no authorization header, bodies parsed, a streamed
 * reply's events with counted times). A streamed body is read whole before it is handed on.
 */
export function capturingFetch(
  upstream: (request: Request) => Promise<Response>,
  observers: readonly ProxyObserver[],
): (input: RequestInfo | URL, init?: RequestInit) => Promise<Response> {
  let seq = 0;
  return async (input, init) => {
    const request = new Request(input, init);
    const mine = seq++;
    const requestText = request.body === null ? '' : await request.clone().text();
    const response = await upstream(request);
    const text = await response.text();
    const url = new URL(request.url);
    const path = url.pathname + url.search;
    const streamed =
      request.method === 'POST' && /\/stream\/?$/.test(url.pathname) && response.status === 200;
    const body = parse(text);
    const events = streamed
      ? ((body as { events?: Record<string, unknown>[] } | undefined)?.events ?? []).map((event, i) => ({
          atMs: (i + 1) * EVENT_STEP_MS,
          event,
        }))
      : undefined;
    const exchange: ProxyExchange = {
      seq: mine,
      method: request.method,
      path,
      requestHeaders: headersOf(request.headers),
      requestBody: parse(requestText),
      status: response.status,
      responseHeaders: headersOf(response.headers),
      responseBody: streamed ? undefined : body,
      ...(events === undefined ? {} : { events, streamEnd: body === undefined ? 'cut' : 'complete' }),
      durationMs: (events?.length ?? 0) * EVENT_STEP_MS,
    };
    for (const observer of observers) observer.onExchange(exchange);
    return new Response(text === '' ? null : text, { status: response.status, headers: response.headers });
  };
}

function headersOf(headers: Headers): Record<string, string> {
  const out: Record<string, string> = {};
  headers.forEach((value, name) => {
    if (name !== 'authorization') out[name] = value;
  });
  return out;
}

function parse(text: string): unknown {
  if (text === '') return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
