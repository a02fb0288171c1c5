import { describe, expect, it } from 'vitest';
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
