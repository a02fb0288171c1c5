import { startServer } from '@parley/reference-server';
import { describe, expect, it } from 'vitest';
import { setResponseHeader, TextResponse, writableHead } from '../src/http/text-response.js';
import { BASE_URL, harness } from './helpers/api.js';

const auth = { authorization: 'Bearer parley-demo-token' };

// The server's JSON responses carry their text without building a body stream first; they must
// still read like any Response.
describe('a JSON response reads like any Response', () => {
  it('once, as text, JSON or bytes; a second read rejects', async () => {
    const h = harness();
    const request = () => h.server.fetch(new Request(`${BASE_URL}/v1/sessions`, { headers: auth }));
    const asText = await request();
    expect(JSON.parse(await asText.text())).toEqual({ sessions: [] });
    expect(asText.bodyUsed).toBe(true);
    await expect(asText.text()).rejects.toBeInstanceOf(TypeError);
    expect(await (await request()).json()).toEqual({ sessions: [] });
    expect(new TextDecoder().decode(await (await request()).arrayBuffer())).toBe('{"sessions":[]}');
    expect((await (await request()).blob()).type).toBe('application/json');
  });

  it('as a stream, and cloned', async () => {
    const h = harness();
    const response = await h.server.fetch(new Request(`${BASE_URL}/v1/sessions`, { headers: auth }));
    const copy = response.clone();
    const streamed = await new Response(response.body).text();
    expect(streamed).toBe('{"sessions":[]}');
    expect(response.bodyUsed).toBe(true);
    expect(await copy.json()).toEqual({ sessions: [] });
    expect(copy.headers.get('x-request-id')).toBe(response.headers.get('x-request-id'));
  });
});

describe('a JSON response keeps its header fields as a record until someone reads headers', () => {
  it('fields set before and after the first read of headers all show, append joins a list', async () => {
    const response = new TextResponse('{"a":1}', {
      status: 201,
      headers: { 'content-type': 'application/json' },
    });
    setResponseHeader(response, 'x-request-id', 'req_1');
    setResponseHeader(response, 'vary', 'origin', true);
    setResponseHeader(response, 'vary', 'accept', true);
    expect(writableHead(response)).toEqual({
      text: '{"a":1}',
      fields: { 'content-type': 'application/json', 'x-request-id': 'req_1', vary: 'origin, accept' },
    });
    const headers = response.headers;
    expect(response.headers).toBe(headers);
    expect(Object.fromEntries(headers)).toEqual({
      'content-type': 'application/json',
      'x-request-id': 'req_1',
      vary: 'origin, accept',
    });
    // Once read, the Headers object holds the fields: later ones go there, and an adapter no longer
    // writes the record.
    setResponseHeader(response, 'x-content-type-options', 'nosniff');
    expect(headers.get('x-content-type-options')).toBe('nosniff');
    expect(writableHead(response)).toBeUndefined();
    expect(response.status).toBe(201);
    expect(await response.json()).toEqual({ a: 1 });
  });

  it('a response with immutable headers gets a copy that carries the header', () => {
    const response = Response.redirect('http://parley.test/v1/sessions', 302);
    const stamped = setResponseHeader(response, 'x-content-type-options', 'nosniff');
    expect(stamped).not.toBe(response);
    expect(stamped.headers.get('x-content-type-options')).toBe('nosniff');
    expect(stamped.headers.get('location')).toBe('http://parley.test/v1/sessions');
  });

  it('over HTTP the adapter writes the fields every layer set (content type, request id, CORS, nosniff)', async () => {
    const running = await startServer({ port: 0 });
    try {
      const res = await fetch(`${running.url}/v1/sessions`, {
        method: 'POST',
        headers: { ...auth, origin: 'http://localhost:5173' },
      });
      expect(res.status).toBe(201);
      expect(res.headers.get('content-type')).toBe('application/json');
      expect(res.headers.get('x-request-id')).toMatch(/^req_[0-9a-f]{32}$/);
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
      expect(res.headers.get('access-control-allow-origin')).toBe('*');
      const body = (await res.json()) as { sessionId: string };
      expect(res.headers.get('content-length')).toBe(String(JSON.stringify(body).length));
      expect(running.server.journal.last()?.requestId).toBe(res.headers.get('x-request-id'));
    } finally {
      await running.close();
    }
  });

  it('over HTTP content-length counts the bytes of the text, not its characters', async () => {
    const running = await startServer({ port: 0 });
    try {
      const created = await fetch(`${running.url}/v1/sessions`, { method: 'POST', headers: auth });
      const { sessionId } = (await created.json()) as { sessionId: string };
      const res = await fetch(`${running.url}/v1/messages/${sessionId}`, {
        method: 'POST',
        headers: { ...auth, 'content-type': 'application/json' },
        body: JSON.stringify({ content: 'Grüße aus Köln ✓ 👋' }),
      });
      expect(res.status).toBe(200);
      const text = await res.text();
      expect(text).toContain('Grüße aus Köln ✓ 👋');
      expect(res.headers.get('content-length')).toBe(String(Buffer.byteLength(text)));
      expect(Number(res.headers.get('content-length'))).toBeGreaterThan(text.length);
    } finally {
      await running.close();
    }
  });
});
