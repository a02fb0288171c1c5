import { connectionDropOf } from '../http/connection.js';
import type { Clock } from '../time/clock.js';
import { checkedStream, pacedStream, type StreamEnd, type UpstreamBody } from './checked-stream.js';
import type { ProxiedRequest } from './proxied-request.js';
import type { ProxyReport } from './proxy-report.js';
import type { SecretRedactor } from './secret-redactor.js';
import { redactSplitSecrets } from './split-secrets.js';
import { StreamChecker } from './stream-checker.js';
import type { UpstreamExchange } from './upstream-call.js';
import { returnedHeaders } from './upstream-request.js';

/** What every answer passed on as a stream shares: the idle timeout and where it is told. */
export interface StreamingContext {
  clock: Clock;
  timeoutMs: number;
  report: ProxyReport;
  log: (line: string) => void;
  /** The upstream as messages name it (its password masked). */
  shown: string;
}

/** The upstream's answer: its status, its header fields (redacted) and whether its body is checked. */
export interface StreamedHead {
  status: number;
  received: Record<string, string>;
  /**
   * True for a streamed reply (checked event by event, through the fault's pacer if any); false
   * for a buffered answer too long to hold, passed on unchecked.
   */
  checked: boolean;
}

/** The upstream's body on its way, and how to stop it. */
export interface StreamedBody {
  body: UpstreamBody;
  call: UpstreamExchange;
  /** Stops watching for the client leaving (the body ended). */
  stopWatch: () => void;
  redactor: SecretRedactor;
}

/** Checks nothing: an answer too long to check passes as it comes. */
const UNCHECKED = { write: () => {}, end: () => {}, complete: true };

/** An answer whose body is passed on as it comes: checked on the way unless `head.checked` is false. */
export function streamedAnswer(
  context: StreamingContext,
  proxied: ProxiedRequest,
  head: StreamedHead,
  upstream: StreamedBody,
): Response {
  const { clock, timeoutMs, report, log, shown } = context;
  const { status, received, checked } = head;
  const { hooks } = proxied;
  if (checked) hooks.onStreamed?.();
  const dropConnection = connectionDropOf(proxied.request);
  const fields = returnedHeaders(received);
  // Over node:http, @hono/node-server writes the head of a chunked body before it reads any of
  // it (it reads ahead otherwise): an upstream that breaks from here on cuts a body whose head
  // the client has, rather than dropping a connection that carried no answer.
  if (dropConnection !== undefined) fields['transfer-encoding'] = 'chunked';
  const events: Array<{ atMs: number; event: Record<string, unknown> }> | undefined =
    checked && proxied.observed ? [] : undefined;
  const pacer = checked ? hooks.pacer : undefined;
  const paced: Array<Record<string, unknown>> = [];
  const observer = checked ? hooks.streamObserver : undefined;
  const checker = checked
    ? new StreamChecker({
        event: (event) => {
          if (typeof event !== 'string') {
            events?.push({ atMs: proxied.elapsed(), event });
            if (pacer !== undefined) paced.push(event);
          }
          if (pacer === undefined) observer?.onEvent?.(event);
        },
        violation: (violation) => proxied.violation(violation),
      })
    : UNCHECKED;
  const options = {
    checker,
    onEnd: (end: StreamEnd) => {
      upstream.stopWatch();
      if (pacer === undefined) observer?.onEnd?.(end === 'complete');
      proxied.finish({
        status,
        responseHeaders: received,
        ...(events === undefined ? {} : { events: redactSplitSecrets(events, upstream.redactor) }),
        ...(checked ? { streamEnd: end } : {}),
      });
    },
    abortUpstream: (reason: unknown) =>
      upstream.call.abort(reason instanceof Error ? reason : new Error('The client left', { cause: reason })),
    dropConnection,
    idle: {
      clock,
      ms: timeoutMs,
      onTimeout: () => {
        report.upstreamFailed('timeout');
        log(
          `[parley] proxy: the upstream ${shown} sent nothing for ${timeoutMs} ms in ${proxied.method} ${proxied.path}: the stream was cut`,
        );
      },
    },
  };
  const stream =
    pacer === undefined
      ? checkedStream(upstream.body, options)
      : pacedStream(upstream.body, {
          ...options,
          checker: checker as StreamChecker,
          pacer,
          events: paced,
          sessionId: sessionIdOf(proxied.path),
          observer,
        });
  return new Response(stream, { status, headers: fields });
}

/** The session id of a `/v1/messages/:sessionId/stream` path. */
function sessionIdOf(path: string): string {
  return decodeURIComponent(path.split('/')[3] ?? '');
}
