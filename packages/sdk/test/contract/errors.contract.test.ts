import { APIError, ERROR_CODES, type Parley } from '@parley/sdk';
import { describe, expect, it } from 'vitest';
import { rejection } from './assertions.js';
import { recordingFetch } from './fetch-wrappers.js';
import { capabilities, NEEDS_DIRECTIVES, targets, useTarget } from './target.js';

/** Calls that fail in as many ways as the SDK can provoke, each with the code it must get. */
async function failingCalls(
  client: Parley,
  anonymous: Parley,
  sessionId: string,
  withDirectives: boolean,
): Promise<[string, () => Promise<unknown>][]> {
  const calls: [string, () => Promise<unknown>][] = [
    ['unauthorized', () => anonymous.sessions.list()],
    ['invalid_request', () => client.sessions.create({ customizations: { agentID: 'x' } } as never)],
    [
      'unknown_agent',
      () => client.sessions.create({ customizations: { agentId: 'no-such-agent-contract' } }),
    ],
    ['session_not_found', () => client.messages.export('sess_contract_missing')],
    ['session_not_found', () => client.sessions.delete('sess_contract_missing')],
    ['tool_call_not_found', () => client.tools.get(sessionId, 'tooluse_contract_missing')],
    ['message_not_found', () => client.messages.rewind(sessionId, 999)],
    ['nothing_to_resume', () => client.messages.send(sessionId, {})],
    ['payload_too_large', () => client.messages.send(sessionId, { content: 'x'.repeat(1024 * 1024 + 1) })],
  ];
  if (withDirectives) {
    const { sessionId: toolSession } = await client.sessions.create();
    const reply = await client.messages.send(toolSession, { content: '/tool a {}' });
    const requestId = reply.pendingTools[0]?.requestId ?? '';
    calls.push(
      ['tool_calls_open', () => client.messages.send(toolSession, { content: 'next' })],
      [
        'tool_call_terminal',
        async () => {
          await client.tools.respond(toolSession, requestId, { v: 1 });
          await client.tools.respond(toolSession, requestId, { v: 2 });
        },
      ],
      ['model_error', () => client.messages.send(sessionId, { content: '/fail Contract failure' })],
    );
  }
  return calls;
}

describe.each(targets())('errors [%s]', (mode) => {
  const target = useTarget(mode);
  const caps = capabilities(mode);

  it('every error body is {error:{code,message}} and the SDK error carries status, code and requestId', async () => {
    const { fetch, responses } = recordingFetch(target.fetch);
    const client = target.client({ token: target.tokenA, fetch });
    const anonymous = target.client({ fetch });
    const { sessionId } = await client.sessions.create();
    const calls = await failingCalls(client, anonymous, sessionId, caps.directives);
    for (const [code, call] of calls) {
      const before = responses.length;
      const error = await rejection(call);
      if (!(error instanceof APIError))
        throw new Error(`${code}: expected an APIError, got ${String(error)}`);
      const raw = responses.slice(before).find((r) => r.status >= 400);
      if (!raw?.errorBody) throw new Error(`${code}: no error response was recorded`);
      const body = JSON.parse(raw.errorBody) as { error?: { code?: unknown; message?: unknown } };
      expect(body.error?.code, code).toBe(code);
      expect(body.error?.message, code).toEqual(expect.any(String));
      expect(String(body.error?.message), code).not.toBe('');
      expect(raw.headers.get('content-type'), code).toMatch(/application\/json/);

      expect(error.code, code).toBe(code);
      expect(error.status, code).toBe(raw.status);
      if (code in ERROR_CODES)
        expect(error.status, code).toBe(ERROR_CODES[code as keyof typeof ERROR_CODES].status);
      expect(error.requestId, code).toBe(raw.headers.get('x-request-id'));
      expect(error.requestId, code).toEqual(expect.any(String));
      // The message names the status, the code, the server's message, the method and the URL.
      expect(error.message, code).toContain(`${raw.status} ${code}: ${String(body.error?.message)}`);
      expect(error.message, code).toContain(`${raw.method} ${raw.url}`);
    }
  });

  it('every response carries an x-request-id header; create is 201, list, send, stream and export 200, delete 204', async () => {
    const { fetch, responses } = recordingFetch(target.fetch);
    const client = target.client({ token: target.tokenA, fetch });
    const { sessionId } = await client.sessions.create();
    await client.sessions.list();
    await client.messages.send(sessionId, { content: 'hello' });
    await client.messages.stream(sessionId, { content: 'hello again' }).finalReply();
    await client.messages.export(sessionId);
    await client.sessions.delete(sessionId);
    await rejection(client.sessions.delete(sessionId));
    expect(responses.map((r) => r.status)).toEqual([201, 200, 200, 200, 200, 204, 404]);
    for (const response of responses)
      expect(response.headers.get('x-request-id')).toEqual(expect.any(String));
  });

  describe.runIf(caps.directives)(NEEDS_DIRECTIVES, () => {
    it('heartbeat, failure and response replies are 200 with an empty body', async () => {
      const { fetch, responses } = recordingFetch(target.fetch);
      const client = target.client({ token: target.tokenA, fetch });
      const { sessionId } = await client.sessions.create();
      const reply = await client.messages.send(sessionId, { content: '/tool a {}\n/tool b {}' });
      const [a, b] = reply.pendingTools.map((p) => p.requestId);
      const before = responses.length;
      await client.tools.heartbeat(sessionId, a ?? '');
      await client.tools.respond(sessionId, a ?? '', { ok: true });
      await client.tools.fail(sessionId, b ?? '', 'nope');
      const replies = responses.slice(before);
      expect(replies.map((r) => r.status)).toEqual([200, 200, 200]);
      expect(await Promise.all(replies.map((r) => r.body))).toEqual(['', '', '']);
    });
  });
});
