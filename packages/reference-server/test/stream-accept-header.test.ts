import { createReferenceServer } from '@parley/reference-server';
import { describe, expect, it } from 'vitest';

const AUTH = { authorization: 'Bearer parley-demo-token', 'content-type': 'application/json' };

async function streamWithAccept(accept: string) {
  const server = createReferenceServer();
  const created = await server.fetch(
    new Request('http://parley.test/v1/sessions', { method: 'POST', headers: AUTH }),
  );
  const { sessionId } = (await created.json()) as { sessionId: string };
  const response = await server.fetch(
    new Request(`http://parley.test/v1/messages/${sessionId}/stream`, {
      method: 'POST',
      headers: { ...AUTH, accept },
      body: JSON.stringify({ content: '/say Not SSE.' }),
    }),
  );
  return { response, text: await response.text() };
}

// docs/protocol.md, "The streamed response": the stream is one JSON document, never SSE.
describe('the streamed response is JSON whatever the Accept header asks for', () => {
  it('Accept: text/event-stream gets the same application/json document, no SSE framing', async () => {
    const { response, text } = await streamWithAccept('text/event-stream');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/json');
    expect(text).not.toMatch(/^(data|event):/m);
    const body = JSON.parse(text) as { events: Array<Record<string, unknown>> };
    expect(body.events.map((e) => Object.keys(e)[0]).at(-1)).toBe('replyStop');
  });

  it('Accept: application/json and */* get the same document', async () => {
    for (const accept of ['application/json', '*/*']) {
      const { response, text } = await streamWithAccept(accept);
      expect(response.headers.get('content-type')).toBe('application/json');
      expect(JSON.parse(text)).toMatchObject({ sessionId: expect.stringMatching(/^sess_/) });
    }
  });
});
