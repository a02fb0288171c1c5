/**
 * A queue-based `fetch` for unit tests: each call takes the next queued reply. It honours the
 * request's `AbortSignal` like a real fetch: a pending call rejects with the signal's reason, and a
 * body being read errors when the signal aborts.
 */

type Reply = Response | Error | ((request: Request) => Response | Promise<Response>);

export interface MockFetch {
  fetch: typeof fetch;
  /** Every request received, in order (bodies still readable through `bodies`). */
  requests: Request[];
  /** Each request's body text, in order. */
  bodies: string[];
  /** Queues replies, used one per call. */
  enqueue(...replies: Reply[]): void;
  /** Queues a JSON reply. */
  json(status: number, body: unknown, headers?: Record<string, string>): void;
  /** Queues a reply that never arrives (until the request is aborted). */
  hang(): void;
  /** Replies still queued. */
  readonly remaining: number;
}

export function createMockFetch(): MockFetch {
  const queue: Reply[] = [];
  const requests: Request[] = [];
  const bodies: string[] = [];

  const mockFetch = async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const request = input instanceof Request ? input : new Request(input, init);
    requests.push(request);
    bodies.push(request.body ? await request.clone().text() : '');
    const signal = request.signal;
    if (signal.aborted) throw signal.reason;
    const reply = queue.shift();
    if (reply === undefined)
      throw new Error(`mock fetch: nothing queued for ${request.method} ${request.url}`);
    if (reply instanceof Error) throw reply;
    const produce = typeof reply === 'function' ? Promise.resolve(reply(request)) : Promise.resolve(reply);
    const response = await new Promise<Response>((resolve, reject) => {
      const onAbort = () => reject(signal.reason);
      signal.addEventListener('abort', onAbort, { once: true });
      produce.then(
        (value) => {
          signal.removeEventListener('abort', onAbort);
          resolve(value);
        },
        (error: unknown) => {
          signal.removeEventListener('abort', onAbort);
          reject(error);
        },
      );
    });
    return bindBodyToSignal(response, signal);
  };

  return {
    fetch: mockFetch as typeof fetch,
    requests,
    bodies,
    enqueue: (...replies) => queue.push(...replies),
    json: (status, body, headers = {}) =>
      queue.push(
        new Response(JSON.stringify(body), {
          status,
          headers: { 'content-type': 'application/json', 'x-request-id': 'req_test', ...headers },
        }),
      ),
    hang: () => queue.push(() => new Promise<Response>(() => {})),
    get remaining() {
      return queue.length;
    },
  };
}

/** A response body errors when the request's signal aborts, as with a real fetch. */
function bindBodyToSignal(response: Response, signal: AbortSignal): Response {
  const source = response.body;
  if (!source) return response;
  const reader = source.getReader();
  const stream = new ReadableStream<Uint8Array>({
    start(controller) {
      signal.addEventListener(
        'abort',
        () => {
          try {
            controller.error(signal.reason);
          } catch {
            // Already closed.
          }
          reader.cancel(signal.reason).catch(() => {});
        },
        { once: true },
      );
    },
    async pull(controller) {
      try {
        const { done, value } = await reader.read();
        if (done) controller.close();
        else controller.enqueue(value);
      } catch (error) {
        try {
          controller.error(error);
        } catch {
          // Already errored by the abort.
        }
      }
    },
    cancel(reason) {
      return reader.cancel(reason);
    },
  });
  return new Response(stream, {
    status: response.status,
    statusText: response.statusText,
    headers: response.headers,
  });
}

/** A body the test writes to chunk by chunk. */
export interface ControlledBody {
  stream: ReadableStream<Uint8Array>;
  push(text: string | Uint8Array): void;
  close(): void;
  error(reason: unknown): void;
  /** True once the reader cancelled the body. */
  readonly cancelled: boolean;
}

export function createControlledBody(): ControlledBody {
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  let cancelled = false;
  const encoder = new TextEncoder();
  const stream = new ReadableStream<Uint8Array>({
    start(c) {
      controller = c;
    },
    cancel() {
      cancelled = true;
    },
  });
  return {
    stream,
    push: (chunk) => controller.enqueue(typeof chunk === 'string' ? encoder.encode(chunk) : chunk),
    close: () => controller.close(),
    error: (reason) => controller.error(reason),
    get cancelled() {
      return cancelled;
    },
  };
}

/** A streamed reply response whose body is `chunks` (strings), or a controlled body. */
export function streamResponse(body: string[] | ReadableStream<Uint8Array>, status = 200): Response {
  const stream =
    body instanceof ReadableStream
      ? body
      : new ReadableStream<Uint8Array>({
          start(controller) {
            const encoder = new TextEncoder();
            for (const chunk of body) controller.enqueue(encoder.encode(chunk));
            controller.close();
          },
        });
  return new Response(stream, {
    status,
    headers: { 'content-type': 'application/json', 'x-request-id': 'req_stream' },
  });
}
