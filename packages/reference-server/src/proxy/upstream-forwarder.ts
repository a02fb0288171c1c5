import { REQUEST_ID_HEADER } from '@parley/protocol';
import { createUpstreamTransport } from '#upstream-transport';
import { watchClient } from '../http/connection.js';
import type { RequestHooks } from '../http/request-hooks.js';
import { TextResponse } from '../http/text-response.js';
import { tokenMatcher } from '../http/token-auth.js';
import { HttpError, isHttpError } from '../http-error.js';
import { maskUrlPasswords } from '../utils/url-password.js';
import { checkRequestBody, checkResponseBody, contentTypeViolation } from './check-body.js';
import { fetchTransport } from './fetch-transport.js';
import { protocolOperation } from './protocol-operations.js';
import { ProxiedRequest, type ProxyContext } from './proxied-request.js';
import { secretRedactors } from './secret-redactor.js';
import { startDeadline } from './start-deadline.js';
import { type StreamingContext, streamedAnswer } from './streamed-answer.js';
import type { UpstreamAnswer } from './upstream-call.js';
import { upstreamError } from './upstream-error.js';
import {
  type CheckingProxyDeps,
  DEFAULT_MAX_CHECKED_BODY_BYTES,
  DEFAULT_UPSTREAM_TIMEOUT_MS,
} from './upstream-options.js';
import { pathAndQuery, readRequestBytes, returnedHeaders, upstreamHeaders } from './upstream-request.js';
import { urlSecrets } from './url-secrets.js';

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
  const shown = maskUrlPasswords(base);
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
  const maxCheckedBodyBytes = upstream.maxCheckedBodyBytes ?? DEFAULT_MAX_CHECKED_BODY_BYTES;
  const streaming: StreamingContext = { clock, timeoutMs, report, log, shown };
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
    // The head goes to the client with the body's first bytes (a streamed reply, or an answer too
    // long to check): an upstream that breaks before them is a 502, never a 200 with nothing after.
    const passOn = async (
      body: ReadableStream<Uint8Array>,
      checked: boolean,
      onFirst?: (first: ReadableStreamReadResult<Uint8Array>) => void,
    ): Promise<Response> => {
      const reader = redactor.reader(body.getReader());
      let first: ReadableStreamReadResult<Uint8Array>;
      try {
        first = await reader.read();
      } catch (error) {
        return failed(error);
      }
      stopTimer();
      onFirst?.(first);
      return streamedAnswer(
        streaming,
        proxied,
        { status: response.status, received, checked },
        { body: { reader, first }, call, stopWatch: watch.stop, redactor },
      );
    };

    const stream = operation?.stream === true && response.status === 200 ? response.stream() : null;
    if (stream !== null) {
      const typeViolation = contentTypeViolation(received);
      if (typeViolation !== undefined) proxied.violation(typeViolation);
      return passOn(stream, true);
    }

    let whole: Uint8Array | undefined;
    try {
      whole = await response.bytes(maxCheckedBodyBytes);
    } catch (error) {
      return failed(error);
    }
    if (whole === undefined) {
      // Too long to hold and check: passed on as it comes, unchecked, with the stream's idle timeout.
      stopTimer();
      return passOn(response.stream() as ReadableStream<Uint8Array>, false, (first) => {
        report.unchecked();
        log(
          `[parley] proxy: the answer to ${method} ${path} is longer than ${maxCheckedBodyBytes} bytes: passed on unchecked`,
        );
        hooks.onResponseBody?.(first.value === undefined ? '' : utf8.decode(first.value), undefined, true);
      });
    }
    const answered = redactor.bytes(whole);
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
