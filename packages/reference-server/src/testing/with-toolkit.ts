import { REQUEST_ID_HEADER } from '@parley/protocol';
import { connectionDropOf } from '../http/connection-drop.js';
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
import type { FaultQueue } from './fault-queue.js';
import type { Journal, JournalEntry, JournalResponse } from './journal.js';
import { journalBody, recordStream, summarizeBody } from './journal-recorder.js';
import { streamPacer } from './stream-pacer.js';

/** What the toolkit works with. */
export interface ToolkitDeps {
  clock: Clock;
  journal: Journal;
  faults: FaultQueue;
  /** `false` ignores the `x-parley-fault` header (queued faults still apply). Default true. */
  faultHeader?: boolean;
  /** Whether a request may get a fault (header or queued): an authenticated one. Default: any. */
  mayFault?: (request: Request) => boolean;
}

/** The core the toolkit wraps: the protocol app's fetch, which takes per-request hooks. */
export type CoreFetch = (request: Request, hooks: RequestHooks) => Promise<Response>;

const SESSION_IN_PATH = /\/(sess_[A-Za-z0-9]+)(?:\/|$)/;

/**
 * Wraps the protocol core in the testing toolkit: each request is recorded in the journal, and gets
 * the fault its `x-parley-fault` header or a queued one-shot asks for. Error faults, drops, latency
 * and `malformed` on buffered replies happen around the core; stream faults reach it only as an
 * {@link EventPacer}. The returned fetch rejects (like a network error) only for an injected
 * dropped connection.
 */
export function withToolkit(core: CoreFetch, deps: ToolkitDeps): (request: Request) => Promise<Response> {
  return (request) => handleRequest(request, core, deps);
}

async function handleRequest(request: Request, core: CoreFetch, deps: ToolkitDeps): Promise<Response> {
  const { clock, journal } = deps;
  const requestId = newRequestId();
  const url = new URL(request.url);
  const sessionInPath = SESSION_IN_PATH.exec(url.pathname)?.[1];
  const entry = journal.record({
    requestId,
    time: clock.now(),
    method: request.method.toUpperCase(),
    path: url.pathname,
    query: url.search,
    ...(sessionInPath === undefined ? {} : { sessionId: sessionInPath }),
  });

  let fault: Fault | undefined;
  try {
    fault = resolveFault(request, url, deps);
  } catch (error) {
    const response = (isHttpError(error) ? error : toInternal(error)).toResponse();
    return finishBuffered(request, entry, response, requestId, deps);
  }
  if (fault !== undefined) entry.fault = fault;

  if (fault?.drop) {
    if (fault.latencyMs !== undefined) await clock.sleep(fault.latencyMs, request.signal).catch(() => {});
    entry.response = { status: 0, complete: false };
    entry.durationMs = clock.now() - entry.time;
    connectionDropOf(request)?.();
    throw new InjectedDropError();
  }
  if (fault !== undefined && isErrorFault(fault)) {
    return finishBuffered(request, entry, faultResponse(fault), requestId, deps, fault);
  }

  let streamed = false;
  const hooks: RequestHooks = {
    requestId,
    onUser: (user) => {
      entry.user = user;
    },
    onBody: (text, truncated) => {
      delete entry.body;
      delete entry.bodyTruncated;
      Object.assign(entry, journalBody(text, truncated));
    },
    onStreamed: () => {
      streamed = true;
    },
  };
  if (fault !== undefined) hooks.pacer = streamPacer(fault, clock, connectionDropOf(request));
  let response: Response;
  try {
    response = await core(request, hooks);
  } catch (error) {
    response = (isHttpError(error) ? error : toInternal(error)).toResponse();
  }
  if (!streamed || response.body === null)
    return finishBuffered(request, entry, response, requestId, deps, fault);

  const journalResponse: JournalResponse = { status: response.status, complete: false };
  entry.response = journalResponse;
  const headers = new Headers(response.headers);
  headers.set(REQUEST_ID_HEADER, requestId);
  return new Response(recordStream(response.body, entry, journalResponse, clock), {
    status: response.status,
    statusText: response.statusText,
    headers,
  });
}

/**
 * The header's fault over a queued one-shot, member by member; none for a request that may not ask
 * for one (checked only when there is a fault to give, so other requests pay nothing).
 */
function resolveFault(request: Request, url: URL, deps: ToolkitDeps): Fault | undefined {
  const { faults } = deps;
  const header = deps.faultHeader === false ? null : request.headers.get(FAULT_HEADER);
  if (header === null && faults.isEmpty) return undefined;
  if (deps.mayFault !== undefined && !deps.mayFault(request)) return undefined;
  const fromHeader = header === null ? undefined : parseFaultHeader(header);
  const queued = faults.take(request.method, url.pathname);
  if (fromHeader === undefined && queued === undefined) return undefined;
  return { ...queued, ...fromHeader };
}

/** Reads a whole (non-streamed) response, journals it, applies latency and `malformed`. */
async function finishBuffered(
  request: Request,
  entry: JournalEntry,
  response: Response,
  requestId: string,
  deps: ToolkitDeps,
  fault?: Fault,
): Promise<Response> {
  const text = response.body === null ? '' : await response.text();
  const kept = journalBody(text);
  entry.response = { status: response.status, ...kept, ...summarizeBody(kept.body), complete: true };
  if (entry.sessionId === undefined && isRecord(kept.body) && typeof kept.body.sessionId === 'string') {
    entry.sessionId = kept.body.sessionId;
  }
  // A client that left stops the wait; the response then goes nowhere.
  if (fault?.latencyMs !== undefined) await deps.clock.sleep(fault.latencyMs, request.signal).catch(() => {});
  entry.durationMs = deps.clock.now() - entry.time;
  const headers = new Headers(response.headers);
  headers.set(REQUEST_ID_HEADER, requestId);
  let body: string | null = response.body === null ? null : text;
  if (fault?.malformed && body !== null) {
    body = text.slice(0, Math.ceil(text.length / 2)) + MALFORMED_MARKER;
    headers.delete('content-length');
  }
  return new Response(body, { status: response.status, statusText: response.statusText, headers });
}

function toInternal(error: unknown): HttpError {
  console.error('[parley] internal error:', error);
  return new HttpError('internal_error', 'An unexpected server failure');
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
