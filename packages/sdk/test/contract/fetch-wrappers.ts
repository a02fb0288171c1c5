import type { FetchLike } from '@parley/sdk';

/** One raw response as it came over the wire. */
export interface RecordedResponse {
  method: string;
  url: string;
  status: number;
  headers: Headers;
  /** The body text of non-2xx responses, read before the SDK sees the response. */
  errorBody: string | undefined;
  /** The whole body text, read from a copy as it arrives (do not use with aborted streams). */
  body: Promise<string>;
}

/** A fetch that records every response the SDK gets, reading copies of their bodies. */
export function recordingFetch(fetch: FetchLike): { fetch: FetchLike; responses: RecordedResponse[] } {
  const responses: RecordedResponse[] = [];
  return {
    responses,
    fetch: async (request) => {
      const response = await fetch(request);
      const errorBody = response.ok ? undefined : await response.clone().text();
      const body = errorBody !== undefined ? Promise.resolve(errorBody) : response.clone().text();
      body.catch(() => {});
      responses.push({
        body,
        method: request.method,
        url: request.url,
        status: response.status,
        headers: response.headers,
        errorBody,
      });
      return response;
    },
  };
}

/** Unknown fields and an unknown event kind, as a later `v1` server might add them. */
export const FUTURE_FIELD = 'contractFutureField';
export const FUTURE_EVENT_KIND = 'contractFutureEvent';

/**
 * A fetch that adds fields the SDK does not know to real server responses: a top-level field and
 * one on every message of a buffered reply, and an unknown event kind first in a stream's `events`.
 */
export function futureFieldsFetch(fetch: FetchLike): FetchLike {
  return async (request) => {
    const response = await fetch(request);
    if (!response.ok || response.body === null) return response;
    const headers = new Headers(response.headers);
    headers.delete('content-length');
    const init = { status: response.status, statusText: response.statusText, headers };
    if (new URL(request.url).pathname.endsWith('/stream')) {
      return new Response(response.body.pipeThrough(injectFirstEvent()), init);
    }
    const body = (await response.json()) as Record<string, unknown>;
    body[FUTURE_FIELD] = 1;
    if (Array.isArray(body.messages)) {
      for (const message of body.messages as Record<string, unknown>[]) message[FUTURE_FIELD] = 'x';
    }
    return new Response(JSON.stringify(body), init);
  };
}

function injectFirstEvent(): TransformStream<Uint8Array, Uint8Array> {
  const decoder = new TextDecoder();
  const encoder = new TextEncoder();
  const marker = '"events":[';
  let head = '';
  let injected = false;
  return new TransformStream({
    transform(chunk, controller) {
      if (injected) {
        controller.enqueue(chunk);
        return;
      }
      head += decoder.decode(chunk, { stream: true });
      const at = head.indexOf(marker);
      if (at < 0) return;
      const cut = at + marker.length;
      const event = JSON.stringify({ [FUTURE_EVENT_KIND]: { [FUTURE_FIELD]: true } });
      controller.enqueue(encoder.encode(`${head.slice(0, cut)}${event},${head.slice(cut)}`));
      injected = true;
    },
    flush(controller) {
      if (!injected) controller.enqueue(encoder.encode(head));
    },
  });
}
