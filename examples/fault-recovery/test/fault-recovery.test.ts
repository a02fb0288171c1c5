import { createReferenceServer } from '@parley/reference-server';
import { startServer } from '@parley/reference-server/node';
import { Parley } from '@parley/sdk';
import { describe, expect, it } from 'vitest';
import { runScenario } from '../src/scenario.js';

// No waiting between attempts: the backoff itself is tested in the SDK (with fake timers).
const backoff = () => 0;

describe('fault-recovery example', () => {
  it('in process: recovers from a 503, a model error and a cut stream, and the session holds one user message', async () => {
    const server = createReferenceServer();
    const client = new Parley({
      baseUrl: 'http://parley.test',
      token: 'parley-demo-token',
      fetch: (input, init) => server.fetch(new Request(input, init)),
    });
    let printed = '';
    const result = await runScenario({ client, server, backoff, print: (text) => (printed += text) });
    expect(result.finalText).toBe('Order A-17 has shipped.');
    expect(result.attempts.map((a) => a.action)).toEqual(['resend', 'resume', 'use']);
    expect(result.conversation.map((m) => m.role)).toEqual(['user', 'assistant', 'user', 'assistant']);
    expect(printed).toContain(
      '↻ recovery 1 of 3 after 0 ms (503 injected_fault): the message was not stored, sending it again',
    );
    expect(printed).toContain('Let me look that up. [interrupted]\n↻ recovery 2 of 3');
    // `use`: what streamed of the completed answer stays, nothing is marked, the rest follows.
    expect(printed).toMatch(
      /\nOrder A-17 has shipped\.\n↻ recovery 1 of 3 after 0 ms \(StreamError\): the reply had completed, taking it from the session\n/,
    );
    expect(printed.match(/\[interrupted\]/g)).toHaveLength(1);
    // Exactly one copy of the question went to the server's model.
    const questions = server.journal
      .entries({ method: 'POST', path: '/v1/messages/*/stream' })
      .filter((entry) => entry.body !== undefined && JSON.stringify(entry.body).includes('A-17'));
    expect(questions).toHaveLength(1);
  });

  it('over HTTP: the same run against a server on a socket', async () => {
    const running = await startServer({ port: 0 });
    try {
      const client = new Parley({ baseUrl: running.url, token: 'parley-demo-token' });
      const result = await runScenario({ client, server: running.server, backoff, print: () => {} });
      expect(result.finalText).toBe('Order A-17 has shipped.');
      expect(result.attempts.map((a) => a.action)).toEqual(['resend', 'resume', 'use']);
      expect(
        result.conversation.filter((m) => m.role === 'user' && m.content[0]?.type === 'text'),
      ).toHaveLength(1);
    } finally {
      await running.close();
    }
  });
});
