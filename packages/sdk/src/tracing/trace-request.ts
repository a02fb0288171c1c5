import type { BeforeRetryHook, Options } from 'ky';
import { endSpan, errorType, SPAN_KIND_CLIENT } from './end-span.js';
import { routeTemplate } from './route-template.js';
import { resolveTracer } from './trace-context.js';
import type { AttributesLike, ContextLike, TracerOption } from './tracer-like.js';

// This module imports nothing the client's first chunk holds (no SDK error class, no ky guard): a
// module shared with that chunk would be split out of it into a file of its own, and an app without
// a tracer would download more. So errors are told apart by their fields, as ky's guards do by name.

/** The protocol's request id header (`REQUEST_ID_HEADER` of errors/api-error.ts). */
const REQUEST_ID_HEADER = 'x-request-id';

/** The HTTP status of a failure: an `APIError`'s, or ky's `HTTPError`'s response's. */
function statusOf(error: unknown): number | undefined {
  const { status, response } = (error ?? {}) as { status?: unknown; response?: { status?: unknown } };
  if (typeof status === 'number') return status;
  return typeof response?.status === 'number' ? response.status : undefined;
}

/** The request id of ky's `HTTPError`'s response. */
function requestIdOf(error: Error): string | undefined {
  const { response } = error as { response?: unknown };
  return response instanceof Response ? (response.headers.get(REQUEST_ID_HEADER) ?? undefined) : undefined;
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
 */
export async function traceRequest<R extends { response: Response }>(
  tracerOption: TracerOption,
  call: TracedCall,
  parent: ContextLike | undefined,
  send: () => Promise<R>,
): Promise<R> {
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
  if (span.isRecording()) {
    // ky's hook before each retry: it runs after the wait, as the request goes again.
    const onRetry: BeforeRetryHook = ({ error, retryCount }) => {
      span.setAttribute('http.request.resend_count', retryCount);
      const status = statusOf(error);
      // ky's TimeoutError is the SDK's APITimeoutError once the call gives up.
      const type = error.name === 'TimeoutError' ? 'APITimeoutError' : errorType(error);
      span.addEvent('parley.retry', {
        'http.request.resend_count': retryCount,
        'error.type': status === undefined ? type : `${status}`,
        'parley.request_id': requestIdOf(error),
      });
    };
    const hooks = call.options.hooks;
    call.options.hooks = { ...hooks, beforeRetry: [...(hooks?.beforeRetry ?? []), onRetry] };
  }
  try {
    const result = await send();
    const { response } = result;
    endSpan(span, undefined, {
      'http.response.status_code': response.status,
      'parley.request_id': response.headers.get(REQUEST_ID_HEADER) ?? undefined,
    });
    return result;
  } catch (error) {
    // An APIError: the service answered, with its status and request id.
    const status = statusOf(error);
    const { requestId } = error as { requestId?: string };
    if (status === undefined) endSpan(span, error);
    else {
      endSpan(
        span,
        error,
        { 'http.response.status_code': status, 'parley.request_id': requestId },
        `${status}`,
      );
    }
    throw error;
  }
}
