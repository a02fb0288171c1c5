import { type BeforeRetryHook, isHTTPError, isTimeoutError, type Options } from 'ky';
import { APIError, REQUEST_ID_HEADER } from '../errors/index.js';
import { endSpan, errorType, SPAN_KIND_CLIENT } from './end-span.js';
import { ROOT_CONTEXT } from './root-context.js';
import { routeTemplate } from './route-template.js';
import { validSpanIds } from './span-ids.js';
import { contextWithSpan, resolveTracer } from './trace-context.js';
import type { AttributesLike, ContextLike, SpanLike, TracerOption } from './tracer-like.js';
import { withContext } from './with-context.js';

/**
 * The W3C `traceparent` header of a request sent inside `span` (`00-{trace id}-{span id}-{flags}`),
 * so that the server's spans and logs join the trace; `undefined` for a span without valid ids (the
 * API's no-op span).
 */
export function traceparentOf(span: SpanLike): string | undefined {
  const context = validSpanIds(span);
  if (!context) return undefined;
  const flags = (context.traceFlags & 0xff).toString(16).padStart(2, '0');
  return `00-${context.traceId}-${context.spanId}-${flags}`;
}

/** `headers` with `name` set to `value`, whatever form ky was given them in. */
function withHeader(
  headers: Options['headers'],
  name: string,
  value: string,
): NonNullable<Options['headers']> {
  if (headers instanceof Headers || Array.isArray(headers)) {
    const copy = new Headers(headers);
    copy.set(name, value);
    return copy;
  }
  return { ...headers, [name]: value };
}

/** One call as the client sends it: what its span names, and its ky options (for the retry hook). */
export interface TracedCall {
  method: string;
  /** The path below the base URL: `v1/messages/sess_1`. */
  path: string;
  /** The full URL, query included. */
  url: string;
  options: Options;
}

/**
 * Runs `send` (one call of the client, its retries included) inside an HTTP client span named
 * after the route, with the semantic conventions' attributes: `http.request.method`, `url.full`,
 * `url.template`, `server.address`, `server.port`, then `http.response.status_code`, the request
 * id (`parley.request_id`), `http.request.resend_count` and a `parley.retry` event per retry, and
 * the error (`error.type` is the status code of an HTTP error, else the SDK error's class name).
 * The request carries the span's W3C `traceparent` header, and `send` runs with the span's context
 * active. The span's parent is `parent`.
 */
export async function traceRequest<R extends { response: Response }>(
  tracerOption: TracerOption,
  call: TracedCall,
  active: ContextLike | undefined,
  send: () => Promise<R>,
): Promise<R> {
  const parent = active ?? ROOT_CONTEXT;
  const tracer = resolveTracer(tracerOption);
  if (!tracer) return send();
  const template = routeTemplate(call.path);
  const url = new URL(call.url);
  const attributes: AttributesLike = {
    'http.request.method': call.method,
    'url.full': call.url,
    'url.template': template,
    'server.address': url.hostname,
    'server.port': Number(url.port) || (url.protocol === 'https:' ? 443 : 80),
  };
  const name = template ? `${call.method} ${template}` : call.method;
  const span = tracer.startSpan(name, { kind: SPAN_KIND_CLIENT, attributes }, parent);
  const traceparent = traceparentOf(span);
  if (traceparent) call.options.headers = withHeader(call.options.headers, 'traceparent', traceparent);
  if (span.isRecording()) {
    // ky's hook before each retry: it runs after the wait, as the request goes again.
    const onRetry: BeforeRetryHook = ({ error, retryCount }) => {
      span.setAttribute('http.request.resend_count', retryCount);
      const response = isHTTPError(error) ? error.response : undefined;
      // ky's TimeoutError is the SDK's APITimeoutError once the call gives up.
      const type = isTimeoutError(error) ? 'APITimeoutError' : errorType(error);
      span.addEvent('parley.retry', {
        'http.request.resend_count': retryCount,
        'error.type': response ? `${response.status}` : type,
        'parley.request_id': response?.headers.get(REQUEST_ID_HEADER) ?? undefined,
      });
    };
    const hooks = call.options.hooks;
    call.options.hooks = { ...hooks, beforeRetry: [...(hooks?.beforeRetry ?? []), onRetry] };
  }
  try {
    const result = await withContext(contextWithSpan(parent, span), send);
    const { response } = result;
    endSpan(span, undefined, {
      'http.response.status_code': response.status,
      'parley.request_id': response.headers.get(REQUEST_ID_HEADER) ?? undefined,
    });
    return result;
  } catch (error) {
    // An APIError: the service answered, with its status and request id.
    if (error instanceof APIError) {
      endSpan(
        span,
        error,
        { 'http.response.status_code': error.status, 'parley.request_id': error.requestId },
        `${error.status}`,
      );
    } else endSpan(span, error);
    throw error;
  }
}
