import { APIPromise, NotFoundError, Parley, ResponseValidationError } from '@parley/sdk';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createMockFetch, streamResponse } from './helpers/mock-fetch.js';
import { streamBody, toolUseEvents } from './helpers/stream-fixtures.js';

afterEach(() => {
  vi.unstubAllEnvs();
  vi.unstubAllGlobals();
});

describe('configuration from the environment', () => {
  it('new Parley() reads PARLEY_BASE_URL and PARLEY_TOKEN', async () => {
    vi.stubEnv('PARLEY_BASE_URL', 'http://from-env.test');
    vi.stubEnv('PARLEY_TOKEN', 'env-token');
    const mock = createMockFetch();
    vi.stubGlobal('fetch', mock.fetch);
    mock.json(200, { sessions: [] });
    const client = new Parley();
    expect(client.baseUrl).toBe('http://from-env.test');
    await client.sessions.list();
    expect(mock.requests[0]?.url).toBe('http://from-env.test/v1/sessions');
    expect(mock.requests[0]?.headers.get('authorization')).toBe('Bearer env-token');
  });

  it('options win over the environment', async () => {
    vi.stubEnv('PARLEY_BASE_URL', 'http://from-env.test');
    vi.stubEnv('PARLEY_TOKEN', 'env-token');
    const mock = createMockFetch();
    mock.json(200, { sessions: [] });
    mock.json(200, { sessions: [] });
    await new Parley({ baseUrl: 'http://option.test', token: 'opt', fetch: mock.fetch }).sessions.list();
    await new Parley({ fetch: mock.fetch, getToken: () => 'fresh' }).sessions.list();
    expect(mock.requests[0]?.url).toBe('http://option.test/v1/sessions');
    expect(mock.requests[0]?.headers.get('authorization')).toBe('Bearer opt');
    expect(mock.requests[1]?.headers.get('authorization')).toBe('Bearer fresh');
  });

  it('reads Deno.env where there is one', () => {
    vi.stubGlobal('Deno', {
      env: { get: (name: string) => ({ PARLEY_BASE_URL: 'http://deno.test' })[name] },
    });
    expect(new Parley().baseUrl).toBe('http://deno.test');
  });

  it('without a base URL anywhere it fails with a message naming both variables', () => {
    vi.stubEnv('PARLEY_BASE_URL', '');
    vi.stubEnv('PARLEY_TOKEN', '');
    expect(() => new Parley()).toThrow(
      /new Parley\(\) needs a base URL and a token: pass \{ baseUrl, token \} or set the PARLEY_BASE_URL and PARLEY_TOKEN environment variables/,
    );
  });

  it('a runtime whose environment cannot be read counts as unset', () => {
    vi.stubGlobal('Deno', {
      env: {
        get: () => {
          throw new Error('Requires env access');
        },
      },
    });
    expect(() => new Parley()).toThrow(/PARLEY_BASE_URL/);
  });
});

describe('withResponse()', () => {
  const BASE = 'http://parley.test';
  function setup() {
    const mock = createMockFetch();
    return { mock, client: new Parley({ baseUrl: BASE, token: 'tok', fetch: mock.fetch, maxRetries: 0 }) };
  }

  it('every call gives the data with status, headers and request id', async () => {
    const { mock, client } = setup();
    mock.json(201, { sessionId: 's1' }, { 'x-request-id': 'req_create' });
    mock.json(200, { sessions: [{ sessionId: 's1', createdAt: 1 }] }, { 'x-request-id': 'req_list' });
    mock.enqueue(new Response(null, { status: 204, headers: { 'x-request-id': 'req_delete' } }));
    const created = client.sessions.create();
    expect(created).toBeInstanceOf(APIPromise);
    const { data, response, requestId } = await created.withResponse();
    expect(data).toEqual({ sessionId: 's1' });
    expect(response.status).toBe(201);
    expect(requestId).toBe('req_create');
    const listed = await client.sessions.list().withResponse();
    expect(listed.data).toEqual([{ sessionId: 's1', createdAt: 1 }]);
    expect(listed.requestId).toBe('req_list');
    const deleted = await client.sessions.delete('s1').withResponse();
    expect(deleted).toMatchObject({ data: undefined, requestId: 'req_delete' });
    expect(deleted.response.status).toBe(204);
  });

  it('awaiting the call directly still gives the data, and failures reject both ways', async () => {
    const { mock, client } = setup();
    mock.json(200, { sessions: [] });
    await expect(client.sessions.list()).resolves.toEqual([]);
    mock.json(404, { error: { code: 'session_not_found', message: 'gone' } }, { 'x-request-id': 'req_gone' });
    const error = await client.messages
      .export('s1')
      .withResponse()
      .catch((e: unknown) => e);
    expect(error instanceof NotFoundError && error.requestId).toBe('req_gone');
    expect((error as Error).message).toContain('request req_gone');
    mock.json(200, { sessions: 'nope' }, { 'x-request-id': 'req_bad' });
    const invalid = await client.sessions.list().catch((e: unknown) => e);
    expect(invalid instanceof ResponseValidationError && invalid.message).toContain('request req_bad');
  });

  it('a stream gives its response once the headers are in', async () => {
    const { mock, client } = setup();
    mock.enqueue(streamResponse([streamBody(toolUseEvents())]));
    const {
      data: stream,
      response,
      requestId,
    } = await client.messages.stream('sess_1', { content: 'hi' }).withResponse();
    expect(response.status).toBe(200);
    expect(requestId).toBe('req_stream');
    expect(stream.requestId).toBe('req_stream');
    expect(await stream.stopReason()).toBe('tool_use');
  });
});

describe('timeoutMs', () => {
  it('a timeoutMs beyond the longest timer is a TypeError, for the client and for a call', async () => {
    expect(() => new Parley({ baseUrl: 'http://parley.test', token: 't', timeoutMs: Infinity })).toThrow(
      'new Parley(): timeoutMs must be a number of ms from 0 to 2147483647 (the longest timer), got Infinity',
    );
    const mock = createMockFetch();
    const client = new Parley({ baseUrl: 'http://parley.test', token: 't', fetch: mock.fetch });
    await expect(client.sessions.list({ timeoutMs: 2 ** 31 })).rejects.toThrow(
      new TypeError(
        'GET http://parley.test/v1/sessions: timeoutMs must be a number of ms from 0 to 2147483647 (the longest timer), got 2147483648',
      ),
    );
    expect(mock.requests).toHaveLength(0);
  });
});
