import { ERROR_CODES, type ErrorCode } from '@parley/protocol';
import type { ErrorDetailsByCode } from '@parley/protocol/wire';
import { HttpError } from '../http-error.js';

/** The request header that injects a fault into that one request, e.g. `x-parley-fault: status=503`. */
export const FAULT_HEADER = 'x-parley-fault';

/**
 * A fault to inject into one response. Every member is optional; several combine (e.g. latency and
 * a status). See docs/testing.md for what each does on buffered and streamed replies.
 */
export interface Fault {
  /** Answer with this HTTP status (400-599) instead of handling the request. */
  status?: number;
  /** The error code of that answer's body. Default `injected_fault`; alone, it also sets the status. */
  code?: ErrorCode;
  /** With a status: the `Retry-After` header, in seconds. */
  retryAfterSeconds?: number;
  /** Server-clock ms before the response (buffered) or before the first event (streamed). */
  latencyMs?: number;
  /** Streamed replies: server-clock ms between two events. */
  delayMs?: number;
  /** Streamed replies: the body ends after this many events, its JSON left open. */
  cutAfterEvents?: number;
  /** Drop the connection without any response; the request is not handled. */
  drop?: boolean;
  /** Streamed replies: drop the connection after this many events (the reply is aborted). */
  dropAfterEvents?: number;
  /** The body is not valid JSON (the request is handled). */
  malformed?: boolean;
}

/** The part of a {@link Fault} that shapes a streamed body. */
export type StreamFault = Pick<
  Fault,
  'latencyMs' | 'delayMs' | 'cutAfterEvents' | 'dropAfterEvents' | 'malformed'
>;

/** Text that replaces a body (or an event) under the `malformed` fault. */
export const MALFORMED_MARKER = '<<parley: malformed>>';

const NUMERIC: Record<string, { key: keyof Fault; min: number; max: number }> = {
  status: { key: 'status', min: 400, max: 599 },
  'retry-after': { key: 'retryAfterSeconds', min: 0, max: 86_400 },
  latency: { key: 'latencyMs', min: 0, max: 3_600_000 },
  delay: { key: 'delayMs', min: 0, max: 3_600_000 },
  'cut-after': { key: 'cutAfterEvents', min: 0, max: 1_000_000 },
  'drop-after': { key: 'dropAfterEvents', min: 0, max: 1_000_000 },
};

/**
 * Parses the `x-parley-fault` header: comma-separated items, e.g.
 * `status=503, retry-after=2` or `latency=200, delay=50, cut-after=3` or `drop` or `malformed`.
 * Throws `400 invalid_request` naming the bad item: a typo never passes silently.
 */
export function parseFaultHeader(value: string): Fault {
  const fault: Fault = {};
  for (const raw of value.split(',')) {
    const item = raw.trim();
    if (item === '') continue;
    const [name = '', argument, ...rest] = item.split('=').map((part) => part.trim());
    if (rest.length > 0) throw badFault(item, 'has more than one "="');
    if (name === 'drop' || name === 'malformed') {
      if (argument !== undefined) throw badFault(item, 'takes no value');
      fault[name] = true;
      continue;
    }
    if (name === 'code') {
      if (argument === undefined || !Object.hasOwn(ERROR_CODES, argument)) {
        throw badFault(item, 'must name an error code of the protocol (docs/errors.md)');
      }
      fault.code = argument as ErrorCode;
      continue;
    }
    const spec = NUMERIC[name];
    if (spec === undefined) {
      throw badFault(
        item,
        'is not a fault; use status=, code=, retry-after=, latency=, delay=, cut-after=, drop-after=, drop or malformed',
      );
    }
    const n = Number(argument);
    if (argument === undefined || !/^\d+$/.test(argument) || n < spec.min || n > spec.max) {
      throw badFault(item, `must be an integer from ${spec.min} to ${spec.max}`);
    }
    (fault as Record<string, unknown>)[spec.key] = n;
  }
  return fault;
}

function badFault(item: string, why: string): HttpError {
  return new HttpError('invalid_request', `${FAULT_HEADER}: "${item}" ${why}`, {
    details: { issues: [{ path: FAULT_HEADER, message: `"${item}" ${why}` }] },
  });
}

/** Checks a fault given from code (or JSON): same ranges as the header. Throws a TypeError. */
export function validateFault(fault: Fault): Fault {
  for (const [name, spec] of Object.entries(NUMERIC)) {
    const value = fault[spec.key];
    if (value === undefined) continue;
    if (typeof value !== 'number' || !Number.isInteger(value) || value < spec.min || value > spec.max) {
      throw new TypeError(`Fault ${spec.key} (${name}) must be an integer from ${spec.min} to ${spec.max}`);
    }
  }
  if (fault.code !== undefined && !Object.hasOwn(ERROR_CODES, fault.code)) {
    throw new TypeError(`Fault code ${String(fault.code)} is not an error code of the protocol`);
  }
  return fault;
}

/** Whether the fault answers with an error instead of handling the request. */
export function isErrorFault(fault: Fault): boolean {
  return fault.status !== undefined || fault.code !== undefined;
}

/** The error answer of a status fault: `{ "error": { "code": "injected_fault", ..., "details": { "status" } } }`. */
export function faultResponse(fault: Fault): Response {
  const code = fault.code ?? 'injected_fault';
  const status = fault.status ?? ERROR_CODES[code].status;
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (fault.retryAfterSeconds !== undefined) headers['retry-after'] = String(fault.retryAfterSeconds);
  // Whatever the code, an injected fault carries these (ErrorDetailsByCode['injected_fault']).
  const details: ErrorDetailsByCode['injected_fault'] = { status, injected: true };
  if (fault.retryAfterSeconds !== undefined) details.retryAfterSeconds = fault.retryAfterSeconds;
  const body = { error: { code, message: `Injected fault: status ${status} (${code})`, details } };
  return new Response(JSON.stringify(body), { status, headers });
}

/** The rejection of `server.fetch` for a dropped connection: like a real fetch's network error. */
export class InjectedDropError extends TypeError {
  readonly code = 'parley_injected_drop';
  constructor(message = 'Injected fault: the connection was dropped') {
    super(message);
  }
}

/** True for the rejection of a dropped connection, also across duplicate copies of this package. */
export function isInjectedDropError(error: unknown): error is InjectedDropError {
  return error instanceof TypeError && (error as { code?: unknown }).code === 'parley_injected_drop';
}
