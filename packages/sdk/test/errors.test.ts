import {
  APIConnectionError,
  APIError,
  APITimeoutError,
  AuthenticationError,
  BadRequestError,
  ConflictError,
  InternalServerError,
  NotFoundError,
  ParleyError,
  PayloadTooLargeError,
  PermissionDeniedError,
  RateLimitError,
  StreamError,
  ToolCallLostError,
} from '@parley/sdk';
import { describe, expect, it } from 'vitest';
// Not exported: the retry policy's reading of Retry-After, tested on its own.
import { parseRetryAfter } from '../src/errors/retry-after.js';

function init(status: number, headers: Record<string, string> = {}) {
  return {
    status,
    code: 'some_code',
    serverMessage: 'Something failed',
    headers: new Headers({ 'x-request-id': 'req_42', ...headers }),
    method: 'get',
    url: 'http://parley.test/v1/sessions',
  };
}

describe('APIError.generate', () => {
  it.each([
    [400, BadRequestError],
    [401, AuthenticationError],
    [403, PermissionDeniedError],
    [404, NotFoundError],
    [409, ConflictError],
    [413, PayloadTooLargeError],
    [429, RateLimitError],
    [500, InternalServerError],
    [502, InternalServerError],
    [503, InternalServerError],
  ])('maps status %i to its subclass', (status, Class) => {
    const error = APIError.generate(init(status));
    expect(error).toBeInstanceOf(Class);
    expect(error).toBeInstanceOf(APIError);
    expect(error.name).toBe(Class.name);
    expect(error instanceof APIError).toBe(true);
  });

  it('falls back to APIError for other statuses', () => {
    const error = APIError.generate(init(418));
    expect(error.name).toBe('APIError');
  });

  it('carries status, code, request id and a message naming method and URL', () => {
    const error = APIError.generate(init(404));
    expect(error).toMatchObject({ status: 404, code: 'some_code', requestId: 'req_42', method: 'GET' });
    expect(error.message).toBe(
      '404 some_code: Something failed (GET http://parley.test/v1/sessions, request req_42)',
    );
    expect(error.serverMessage).toBe('Something failed');
  });

  it('parses Retry-After on a RateLimitError', () => {
    const error = APIError.generate(init(429, { 'retry-after': '3' }));
    expect(error instanceof RateLimitError && error.retryAfterMs).toBe(3000);
  });
});

describe('instanceof', () => {
  it('rejects look-alikes without the brand', () => {
    expect(Object.assign(new Error('x'), { name: 'NotFoundError' }) instanceof NotFoundError).toBe(false);
    for (const value of [null, undefined, 'NotFoundError', { name: 'NotFoundError' }] as unknown[]) {
      expect(value instanceof ParleyError).toBe(false);
    }
  });

  it('treats a timeout as a connection error too', () => {
    const error = new APITimeoutError();
    expect(error instanceof APITimeoutError).toBe(true);
    expect(error instanceof APIConnectionError).toBe(true);
    expect(new APIConnectionError() instanceof APITimeoutError).toBe(false);
  });

  it('a replay mismatch is a 501 InternalServerError or a StreamError, each with code replay_mismatch', () => {
    const buffered = APIError.generate({ ...init(501), code: 'replay_mismatch' });
    expect(buffered).toBeInstanceOf(InternalServerError);
    expect(buffered.code).toBe('replay_mismatch');
    const streamed = new StreamError('Replay mismatch', { eventCount: 3, code: 'replay_mismatch' });
    expect(streamed instanceof StreamError && streamed.code).toBe('replay_mismatch');
  });

  it('keep the cause', () => {
    const cause = new Error('socket hang up');
    expect(new APIConnectionError('Connection error', { cause }).cause).toBe(cause);
  });
});

describe('StreamError and ToolCallLostError', () => {
  it('StreamError names what was received', () => {
    const error = new StreamError('The stream ended without replyStop', {
      eventCount: 3,
      lastEventKind: 'contentBlockDelta',
    });
    expect(error.message).toBe('The stream ended without replyStop (after 3 events, last contentBlockDelta)');
    expect(error instanceof StreamError).toBe(true);
  });

  it('ToolCallLostError carries reason and ids', () => {
    const error = new ToolCallLostError('lost', { reason: 'ABANDONED', sessionId: 's', requestId: 'r' });
    expect(error).toMatchObject({
      reason: 'ABANDONED',
      sessionId: 's',
      requestId: 'r',
      name: 'ToolCallLostError',
    });
    expect(error instanceof ToolCallLostError).toBe(true);
  });
});

describe('parseRetryAfter', () => {
  const now = Date.parse('2025-01-01T00:00:00Z');
  it.each([
    [{ 'retry-after-ms': '250' }, 250],
    [{ 'retry-after-ms': '250', 'retry-after': '9' }, 250],
    [{ 'retry-after': '2' }, 2000],
    [{ 'retry-after': '0.5' }, 500],
    [{ 'retry-after': 'Wed, 01 Jan 2025 00:00:05 GMT' }, 5000],
    [{ 'retry-after': '3600' }, 60_000],
    [{ 'retry-after': 'soon' }, undefined],
    [{ 'retry-after': '-1' }, undefined],
    [{}, undefined],
  ])('%j → %s', (headers, expected) => {
    expect(parseRetryAfter(new Headers(headers), now)).toBe(expected);
  });
});
