import { REQUEST_ID_HEADER } from '@parley/protocol';
import { connectionDropOf } from '../http/connection.js';
import type { EventPacer } from '../http/event-pacer.js';
import type { RequestHooks } from '../http/request-hooks.js';
import { newRequestId } from '../http/request-id.js';
import { HttpError, isHttpError } from '../http-error.js';
import type { Clock } from '../time/clock.js';
import {
  FAULT_HEADER,
  type Fault,
  faultResponse,
  InjectedDropError,
  isErrorFault,
  MALFORMED_MARKER,
  parseFaultHeader,
} from './fault.js';
import { type JournalRecord, splitUrl } from './journal-record.js';
import type { Scope } from './scope.js';
import type { ChaosMark } from './seeded-chaos.js';
import { streamPacer } from './stream-pacer.js';

/** What the toolkit works with; the journal and the faults are the request's scope's. */
export interface ToolkitDeps {
  clock: Clock;
  /** Aborted when the server closes: a latency wait ends then (the response is sent at once). */
  closed?: AbortSignal;
  /** `false` ignores the `x-parley-fault` header (queued faults still apply). Default true. */
  faultHeader?: boolean;
  /**
   * Whether a request may get a fault (header or queued): an authenticated one. Default: any. A
   * promise when the answer waits (a wrong control token, slowed down).
   */
  mayFault?: (request: Request) => boolean | Promise<boolean>;
}

/** The core the toolkit wraps: the protocol app's fetch, which takes per-request hooks. */
export type CoreFetch = (request: Request, hooks: RequestHooks) => Promise<Response>;

/**
 * Wraps the protocol core in the testing toolkit: each request is recorded in its scope's journal,
 * and gets the fault its `x-parley-fault` header or a queued one-shot of its scope asks for; the
 * core is handed the scope as a request hook. Error faults, drops, latency
 * and `malformed` on buffered replies happen around the core; stream faults reach it only as an
 * {@link EventPacer}. The returned fetch rejects (like a network error) only for an injected
 * dropped connection.
 *
 * Without a fault the core's response goes back as it is: the journal's record is the request's
 * hooks, so the core tells it the bodies it read and wrote (values, not copies) and a stream's
 * events as they are written; nothing is read twice, parsed again or rebuilt.
 */
export function withToolkit(
  core: CoreFetch,
  deps: ToolkitDeps,
): (request: Request, scope: Scope) => Promise<Response> {
  return (request, scope) => {
    const record = scope.journal.open(request.method.toUpperCase(), request.url, deps.clock);
    if (record !== undefined) record.scope = scope;
    if (record !== undefined) record.traceparent = request.headers.get('traceparent') ?? undefined;
    const faulty = !scope.faults.isEmpty || request.headers.get(FAULT_HEADER) !== null;
    if (!faulty)
      return record === undefined ? core(request, { scope }) : recorded(request, core, record, deps.clock);
    return withFault(request, core, deps, scope, record);
  };
}

/** No fault: the core runs with the record as its hooks; only an untold body is read here. */
async function recorded(
  request: Request,
  core: CoreFetch,
  record: JournalRecord,
  clock: Clock,
): Promise<Response> {
  let response: Response;
  try {
    response = await core(request, record);
  } catch (error) {
    response = internalErrorResponse(error, record.requestId, record);
  }
  if (record.streamed && response.body !== null) {
    record.respond(response.status, false);
    return response;
  }
  record.respond(response.status, true);
  record.durationMs = clock.now() - record.time;
  if (record.hasResponseBody || response.body === null) return response;
  // A response the core did not tell the body of (a preflight, a middleware's own): read it here.
  return rebuilt(response, await keepText(response, record), record.requestId);
}

/** With a fault from the header or the queue. */
async function withFault(
  request: Request,
  core: CoreFetch,
  deps: ToolkitDeps,
  scope: Scope,
  record: JournalRecord | undefined,
): Promise<Response> {
  const { clock } = deps;
  const requestId = record?.requestId ?? newRequestId();
  const time = record?.time ?? clock.now();
  let fault: Fault | undefined;
  try {
    const resolved = await resolveFault(request, deps, scope);
    fault = resolved?.fault;
    if (record !== undefined && resolved?.chaos !== undefined) record.chaos = resolved.chaos;
  } catch (error) {
    const response = (isHttpError(error) ? error : toInternal(error)).toResponse();
    return finishBuffered(request, record, response, requestId, deps, time);
  }
  if (record !== undefined && fault !== undefined) record.fault = fault;

  if (fault?.drop) {
    if (fault.latencyMs !== undefined) await latency(fault.latencyMs, request, deps);
    if (record !== undefined) {
      record.respond(0, false);
      record.durationMs = clock.now() - time;
    }
    connectionDropOf(request)?.();
    throw new InjectedDropError();
  }
  if (fault !== undefined && isErrorFault(fault)) {
    return finishBuffered(request, record, faultResponse(fault), requestId, deps, time, fault);
  }

  let streamed = false;
  const hooks: RequestHooks = record ?? {
    requestId,
    scope,
    onStreamed: () => {
      streamed = true;
    },
  };
  if (fault !== undefined) hooks.pacer = streamPacer(fault, clock, connectionDropOf(request), deps.closed);
  let response: Response;
  try {
    response = await core(request, hooks);
  } catch (error) {
    response = internalErrorResponse(error, requestId, record);
  }
  // The writer of a stream holds its pacer; the journal need not (it holds the connection).
  hooks.pacer = undefined;
  if ((record?.streamed ?? streamed) && response.body !== null) {
    record?.respond(response.status, false);
    return response;
  }
  return finishBuffered(request, record, response, requestId, deps, time, fault);
}

/**
 * The header's fault over a queued one-shot, member by member, over seeded chaos (drawn for every
 * matching request, so its counts do not depend on the others); none for a request that may not ask
 * for one (checked only when there is a fault to give, so other requests pay nothing).
 */
async function resolveFault(
  request: Request,
  deps: ToolkitDeps,
  scope: Scope,
): Promise<{ fault: Fault; chaos?: ChaosMark } | undefined> {
  const { faults } = scope;
  const header = deps.faultHeader === false ? null : request.headers.get(FAULT_HEADER);
  if (header === null && faults.isEmpty) return undefined;
  if (deps.mayFault !== undefined && !(await deps.mayFault(request))) return undefined;
  const fromHeader = header === null ? undefined : parseFaultHeader(header);
  const path = splitUrl(request.url).path;
  const queued = faults.isEmpty ? undefined : faults.take(request.method, path);
  const chaos = await faults.drawChaos(request.method, path);
  if (fromHeader === undefined && queued === undefined) {
    return chaos === undefined ? undefined : { fault: chaos.fault, chaos: chaos.mark };
  }
  return { fault: { ...queued, ...fromHeader } };
}

/** A buffered response with a fault: journaled, then latency and `malformed` applied. */
async function finishBuffered(
  request: Request,
  record: JournalRecord | undefined,
  response: Response,
  requestId: string,
  deps: ToolkitDeps,
  time: number,
  fault?: Fault,
): Promise<Response> {
  const told = record?.hasResponseBody === true;
  const needed = fault?.malformed === true || (record !== undefined && !told);
  const text = response.body === null || !needed ? undefined : await response.text();
  if (record !== undefined && !told && text !== undefined) record.responseText(text);
  record?.respond(response.status, true);
  // A client that left stops the wait; the response then goes nowhere.
  if (fault?.latencyMs !== undefined) await latency(fault.latencyMs, request, deps);
  if (record !== undefined) record.durationMs = deps.clock.now() - time;
  if (text === undefined) return response;
  if (fault?.malformed) {
    const malformed = text.slice(0, Math.ceil(text.length / 2)) + MALFORMED_MARKER;
    const headers = new Headers(response.headers);
    headers.set(REQUEST_ID_HEADER, requestId);
    headers.delete('content-length');
    return new Response(malformed, { status: response.status, statusText: response.statusText, headers });
  }
  return rebuilt(response, text, requestId);
}

async function keepText(response: Response, record: JournalRecord): Promise<string> {
  const text = await response.text();
  record.responseText(text);
  return text;
}

/** The response again, with a body that was read and the request id. */
function rebuilt(response: Response, text: string, requestId: string): Response {
  const headers = new Headers(response.headers);
  headers.set(REQUEST_ID_HEADER, requestId);
  return new Response(text, { status: response.status, statusText: response.statusText, headers });
}

/** The core threw (it answers every failure itself, so this is a bug): its error, with the request id. */
function internalErrorResponse(
  error: unknown,
  requestId: string,
  record: JournalRecord | undefined,
): Response {
  const httpError = isHttpError(error) ? error : toInternal(error);
  const value = httpError.toBody();
  const text = JSON.stringify(value);
  record?.onResponseBody(text, value);
  return new Response(text, {
    status: httpError.status,
    headers: { 'content-type': 'application/json', ...httpError.headers, [REQUEST_ID_HEADER]: requestId },
  });
}

function toInternal(error: unknown): HttpError {
  console.error('[parley] internal error:', error);
  return new HttpError('internal_error', 'An unexpected server failure');
}

/** Waits an injected latency; a client that leaves, or the server closing, ends the wait. */
function latency(ms: number, request: Request, deps: ToolkitDeps): Promise<void> {
  const signal = deps.closed === undefined ? request.signal : AbortSignal.any([request.signal, deps.closed]);
  return deps.clock.sleep(ms, signal).catch(() => {});
}
