import { REQUEST_ID_HEADER } from '@parley/protocol';
import { createUpstreamTransport } from '#upstream-transport';
import { connectionDropOf, watchClient } from '../http/connection.js';
import type { RequestHooks } from '../http/request-hooks.js';
import { TextResponse } from '../http/text-response.js';
import { tokenMatcher } from '../http/token-auth.js';
import { HttpError, isHttpError } from '../http-error.js';
import { maskUrlPassword, urlSecrets } from '../utils/url-password.js';
import { checkRequestBody, checkResponseBody, contentTypeViolation } from './check-body.js';
import { checkedStream, pacedStream, type StreamEnd, type UpstreamBody } from './checked-stream.js';
import { fetchTransport } from './fetch-transport.js';
import { protocolOperation } from './protocol-operations.js';
import { ProxiedRequest, type ProxyContext } from './proxied-request.js';
import { type SecretRedactor, secretRedactors } from './secret-redactor.js';
import { redactSplitSecrets } from './split-secrets.js';
import { startDeadline } from './start-deadline.js';
import { StreamChecker } from './stream-checker.js';
import type { UpstreamAnswer, UpstreamExchange } from './upstream-call.js';
import { upstreamError } from './upstream-error.js';
import { type CheckingProxyDeps, DEFAULT_UPSTREAM_TIMEOUT_MS } from './upstream-options.js';
import { pathAndQuery, readRequestBytes, returnedHeaders, upstreamHeaders } from './upstream-request.js';

const BEARER = /^Bearer +([A-Za-z0-9._~+/-]+=*) *$/i;
const utf8 = new TextDecoder();

/** The proxy's request path, and the end of its upstream connections. */
export interface UpstreamForwarder {
  fetch(request: Request, hooks: RequestHooks): Promise<Response>;
  /** Closes the connections to the upstream kept alive between requests. */
  close(): void;
}

/**
 * Forwards one `/v1` request to the upstream and its answer back, checking both on the way (the
 * proxy's request path: loaded on the first request, so a bundle that never proxies stays small).
 */
export function createUpstreamForwarder(deps: CheckingProxyDeps, context: ProxyContext): UpstreamForwarder {
  const { upstream, clock, maxBodyBytes } = deps;
  const { report, log } = context;
  const base = upstream.url.replace(/\/+$/, '');
  // What messages name: the URL with its password masked.
  const shown = maskUrlPassword(base);
  const timeoutMs = upstream.timeoutMs ?? DEFAULT_UPSTREAM_TIMEOUT_MS;
  const client =
    upstream.fetch === undefined
      ? createUpstreamTransport()
      : { send: fetchTransport(upstream.fetch), close: () => {} };
  const send = client.send;
  const token = upstream.token;
  const userOf = token === undefined ? undefined : tokenMatcher(deps.users);
  // The secrets the upstream may reflect: its token and the URL's password, and in pass-through
  // the client's token.
  const redactorFor = secretRedactors(token, urlSecrets(base));
  let seq = 0;

  const fetch = async (request: Request, hooks: RequestHooks): Promise<Response> => {
    const method = request.method.toUpperCase();
    const path = pathAndQuery(request.url);
    const mark = path.indexOf('?');
    const operation = protocolOperation(method, mark === -1 ? path : path.slice(0, mark));
    const proxied = new ProxiedRequest(
      seq++,
      method,
      path,
      operation?.name ?? `${method} ${path}`,
      request,
      hooks,
      context,
    );
    let authorization = request.headers.get('authorization');
    if (userOf !== undefined) {
      const user = userOf(BEARER.exec(authorization ?? '')?.[1] ?? '');
      if (user === undefined) {
        const error = new HttpError('unauthorized', "The bearer token is not one of this server's users", {
          headers: { 'www-authenticate': 'Bearer' },
        });
        return answer(proxied, error, false);
      }
      hooks.onUser?.(user);
      authorization = `Bearer ${token}`;
    }

    let bytes: Uint8Array;
    try {
      bytes = await readRequestBytes(request, maxBodyBytes);
    } catch (error) {
      const local = isHttpError(error) ? error : new HttpError('invalid_request', String(error));
      return answer(proxied, local, false);
    }
    // Refused locally (401, 413) above: from here on the request is the upstream's.
    report.request();
    const redactor = redactorFor(BEARER.exec(authorization ?? '')?.[1]);
    const sent = checkRequestBody(bytes, operation);
    proxied.requestBody = sent.value;
    if (bytes.byteLength > 0) hooks.onBody?.(sent.text ?? utf8.decode(bytes), false, sent.value);
    for (const violation of sent.violations) proxied.violation(violation);

    // The client leaving or the timeout ends the upstream request.
    let timedOut = false;
    let clientLeft = false;
    proxied.forwardedAt = clock.now();
    const call = send({
      base,
      path,
      method,
      headers: upstreamHeaders(request, authorization),
      body: bytes.byteLength > 0 ? bytes : undefined,
    });
    const watch = watchClient(request, () => {
      clientLeft = true;
      call.abort(new Error('The client left'));
    });
    const stopTimer = startDeadline(clock, timeoutMs, () => {
      timedOut = true;
      call.abort(new Error(`No answer within ${timeoutMs} ms`));
    });
    const settle = () => {
      stopTimer();
      watch.stop();
    };
    const failed = (error: unknown): Response => {
      settle();
      if (clientLeft) {
        proxied.finish({ status: 499, responseHeaders: {} });
        return new Response(null, { status: 499 });
      }
      return answer(proxied, upstreamError(shown, timedOut, timeoutMs, error, redactor));
    };

    let response: UpstreamAnswer;
    try {
      response = await call.answer;
    } catch (error) {
      return failed(error);
    }
    proxied.status = response.status;
    const received = redactor.active ? redactor.fields(response.headers) : response.headers;

    const stream = operation?.stream === true && response.status === 200 ? response.stream() : null;
    if (stream !== null) {
      const typeViolation = contentTypeViolation(received);
      if (typeViolation !== undefined) proxied.violation(typeViolation);
      // The head goes to the client with the body's first bytes: an upstream that breaks before
      // them is a 502, never a 200 with nothing after it (or no answer at all).
      const reader = redactor.reader(stream.getReader());
      let first: ReadableStreamReadResult<Uint8Array>;
      try {
        first = await reader.read();
      } catch (error) {
        return failed(error);
      }
      stopTimer();
      return streamed(proxied, response.status, received, { reader, first }, call, watch.stop, redactor);
    }

    let answered: Uint8Array;
    try {
      answered = redactor.bytes(await response.bytes());
    } catch (error) {
      return failed(error);
    }
    settle();
    const body = checkResponseBody(answered, response.status, operation, received);
    for (const violation of body.violations) proxied.violation(violation);
    const fields = returnedHeaders(received);
    const text = body.text ?? utf8.decode(answered);
    hooks.onResponseBody?.(text, body.value ?? (text === '' ? undefined : text));
    proxied.finish({ status: response.status, responseHeaders: received, responseBody: body.value });
    if (body.text === undefined) {
      return new Response(answered as Uint8Array<ArrayBuffer>, { status: response.status, headers: fields });
    }
    return new TextResponse(body.text, { status: response.status, headers: fields });
  };

  /** A streamed reply: passed on as it comes, checked on the way (through the fault's pacer if any). */
  const streamed = (
    proxied: ProxiedRequest,
    status: number,
    received: Record<string, string>,
    body: UpstreamBody,
    call: UpstreamExchange,
    stopWatch: () => void,
    redactor: SecretRedactor,
  ): Response => {
    const { hooks } = proxied;
    hooks.onStreamed?.();
    const dropConnection = connectionDropOf(proxied.request);
    const fields = returnedHeaders(received);
    // Over node:http, @hono/node-server writes the head of a chunked body before it reads any of
    // it (it reads ahead otherwise): an upstream that breaks from here on cuts a body whose head
    // the client has, rather than dropping a connection that carried no answer.
    if (dropConnection !== undefined) fields['transfer-encoding'] = 'chunked';
    const events: Array<{ atMs: number; event: Record<string, unknown> }> | undefined = proxied.observed
      ? []
      : undefined;
    const pacer = hooks.pacer;
    const paced: Array<Record<string, unknown>> = [];
    const observer = hooks.streamObserver;
    const checker = new StreamChecker({
      event: (event) => {
        if (typeof event !== 'string') {
          events?.push({ atMs: proxied.elapsed(), event });
          if (pacer !== undefined) paced.push(event);
        }
        if (pacer === undefined) observer?.onEvent?.(event);
      },
      violation: (violation) => proxied.violation(violation),
    });
    const options = {
      checker,
      onEnd: (end: StreamEnd) => {
        stopWatch();
        if (pacer === undefined) observer?.onEnd?.(end === 'complete');
        proxied.finish({
          status,
          responseHeaders: received,
          ...(events === undefined ? {} : { events: redactSplitSecrets(events, redactor) }),
          streamEnd: end,
        });
      },
      abortUpstream: (reason: unknown) =>
        call.abort(reason instanceof Error ? reason : new Error('The client left', { cause: reason })),
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
        ? checkedStream(body, options)
        : pacedStream(body, {
            ...options,
            pacer,
            events: paced,
            sessionId: sessionIdOf(proxied.path),
            observer,
          });
    return new Response(stream, { status, headers: fields });
  };

  /**
   * The proxy's own answer (401, 413, 502, 504): told to the journal, and to the observers when the
   * request was meant for the upstream (`forwarded`: a 502 or 504, not a local refusal).
   */
  const answer = (proxied: ProxiedRequest, error: HttpError, forwarded = true): Response => {
    if (error.code === 'upstream_unreachable') report.upstreamFailed('unreachable');
    if (error.code === 'upstream_timeout') report.upstreamFailed('timeout');
    const value = error.toBody();
    const text = JSON.stringify(value);
    proxied.hooks.onResponseBody?.(text, value);
    const headers: Record<string, string> = { 'content-type': 'application/json', ...error.headers };
    if (proxied.hooks.requestId !== undefined) headers[REQUEST_ID_HEADER] = proxied.hooks.requestId;
    if (forwarded) proxied.finish({ status: error.status, responseHeaders: headers, responseBody: value });
    return new TextResponse(text, { status: error.status, headers });
  };

  return { fetch, close: () => client.close() };
}

/** The session id of a `/v1/messages/:sessionId/stream` path. */
function sessionIdOf(path: string): string {
  return decodeURIComponent(path.split('/')[3] ?? '');
}
