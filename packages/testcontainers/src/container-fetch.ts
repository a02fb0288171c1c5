import { ParleyContainerError } from './parley-container-error.js';

/** Which container a {@link containerFetch} reaches, and how long it waits for an answer. */
export interface ContainerFetchTarget {
  /** The container's id, named in errors. */
  containerId: string;
  /** A control call (`/_parley/...`) with no answer's status after this long fails. */
  timeoutMs: number;
}

/**
 * `fetch` for one started container: a request the container does not answer (it stopped, its port
 * went away), or a body whose read breaks off (a stream cut by a stop), rejects with a
 * {@link ParleyContainerError} naming the container, never a bare `fetch failed` or a hang. A
 * control call (`/_parley/...`) also fails when no answer's status came within `timeoutMs`; the
 * service's own routes are not bounded (a paced or scripted reply may take its time: your client's
 * time limit applies). A caller's own abort stays an abort. Every handle call and
 * `testScope().fetch` goes through it (`connectSharedServer`'s `fetch`); give it to your client too.
 */
export function containerFetch(target: ContainerFetchTarget): typeof fetch {
  return async (input, init = {}) => {
    const url = input instanceof Request ? input.url : String(input);
    const what = `${init.method ?? (input instanceof Request ? input.method : 'GET')} ${url}`;
    const deadline = new AbortController();
    const timer = new URL(url).pathname.startsWith('/_parley/')
      ? setTimeout(
          () => deadline.abort(new DOMException('no answer in time', 'TimeoutError')),
          target.timeoutMs,
        )
      : undefined;
    const callerSignal = init.signal ?? (input instanceof Request ? input.signal : undefined);
    const signal = callerSignal ? AbortSignal.any([callerSignal, deadline.signal]) : deadline.signal;
    let response: Response;
    try {
      response = await fetch(input, { ...init, signal });
    } catch (error) {
      if (callerSignal?.aborted) throw error;
      throw unanswered(target, what, deadline.signal.aborted ? deadline.signal.reason : error);
    } finally {
      clearTimeout(timer);
    }
    return withBodyErrors(response, (error) =>
      callerSignal?.aborted ? error : unanswered(target, `reading the body of ${what}`, error),
    );
  };
}

/** The error of a request the container did not answer: stopped, or too slow. */
function unanswered(target: ContainerFetchTarget, what: string, cause: unknown): ParleyContainerError {
  const reason =
    cause instanceof DOMException && cause.name === 'TimeoutError'
      ? `no answer within ${target.timeoutMs} ms`
      : (codeOf(cause) ?? (cause as Error)?.message ?? String(cause));
  return new ParleyContainerError(
    `${what} failed: the Parley container ${target.containerId.slice(0, 12)} did not answer (${reason}); ` +
      'was it stopped, or did it exit? Its logs say why (container.logs())',
    { cause },
  );
}

function codeOf(error: unknown): string | undefined {
  const cause = (error as { cause?: { code?: unknown } })?.cause;
  return typeof cause?.code === 'string' ? cause.code : undefined;
}

/**
 * The response with its body's read errors (a container stopped mid-stream) turned into
 * {@link ParleyContainerError}s: a reader rejects at once, saying the container went away.
 */
function withBodyErrors(response: Response, wrap: (error: unknown) => unknown): Response {
  const body = response.body;
  if (body === null) return response;
  const reader = body.getReader();
  const wrapped = new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const { done, value } = await reader.read();
        if (done) controller.close();
        else controller.enqueue(value);
      } catch (error) {
        controller.error(wrap(error));
      }
    },
    cancel: (reason) => reader.cancel(reason),
  });
  return new Response(wrapped, {
    status: response.status,
    statusText: response.statusText,
    headers: response.headers,
  });
}
