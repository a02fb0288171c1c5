import { ParleyContainerError } from './parley-container-error.js';

/** Where a started container's control routes are, and how long a call may take. */
export interface ControlTarget {
  baseUrl: string;
  controlToken: string;
  /** The container's id, named in errors. */
  containerId: string;
  /** A call with no answer after this long fails. */
  timeoutMs: number;
}

/**
 * One call to the server's control routes (`/_parley/...`, docs/testing.md): the control token, the
 * test's id when given, a JSON body. Resolves with the parsed JSON answer (undefined for `204`);
 * rejects with a {@link ParleyContainerError} saying what happened when the container does not
 * answer (stopped, port gone, no answer within `timeoutMs`) or answers with an error status.
 */
export async function controlCall(
  target: ControlTarget,
  method: string,
  path: string,
  options: { testId?: string; body?: unknown } = {},
): Promise<unknown> {
  const url = `${target.baseUrl}/_parley${path}`;
  const headers: Record<string, string> = { 'x-parley-control-token': target.controlToken };
  if (options.testId !== undefined) headers['x-parley-test-id'] = testIdHeaderValue(options.testId);
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  let response: Response;
  let text: string;
  try {
    response = await fetch(url, {
      method,
      headers,
      ...(options.body === undefined ? {} : { body: JSON.stringify(options.body) }),
      signal: AbortSignal.timeout(target.timeoutMs),
    });
    text = await response.text();
  } catch (error) {
    throw unreachable(target, `${method} ${url}`, error);
  }
  if (!response.ok) {
    throw new ParleyContainerError(`${method} ${url} answered ${response.status}: ${text}`, {
      status: response.status,
    });
  }
  return text === '' ? undefined : JSON.parse(text);
}

/** The error of a request the container did not answer: stopped, or too slow. */
export function unreachable(target: ControlTarget, what: string, cause: unknown): ParleyContainerError {
  const reason =
    cause instanceof DOMException && cause.name === 'TimeoutError'
      ? `no answer within ${target.timeoutMs} ms`
      : `${codeOf(cause) ?? (cause as Error)?.message ?? String(cause)}`;
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
 * A test's id as the `x-parley-test-id` header carries it: characters beyond printable ASCII
 * percent-encoded (the server's rule, docs/testing.md).
 */
export function testIdHeaderValue(testId: string): string {
  return testId.replace(/[^\t\u0020-\u007e]/gu, (c) => encodeURIComponent(c));
}
