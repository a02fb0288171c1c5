import { describe, expect, it } from 'vitest';
import { expectError, harness } from './helpers/api.js';

describe('blocks a user message may hold', () => {
  it('a user message holding a tool_use block is a 400 that says what is wrong and what to send', async () => {
    const h = harness();
    const sessionId = await h.createSession();
    for (const path of [`/v1/messages/${sessionId}`, `/v1/messages/${sessionId}/stream`]) {
      const res = await h.call('POST', path, {
        content: [{ type: 'tool_use', id: 'tooluse_1', name: 'get_weather', input: { city: 'Paris' } }],
      });
      const error = expectError(res, 400, 'invalid_request');
      expect(error.message).toBe(
        'content.0.type: a user message cannot hold a tool_use block: only the model asks for tools. ' +
          'To answer its tool call, submit the result with POST /v1/tools/response/:sessionId/:requestId ' +
          '(or report a failure with POST /v1/tools/request/:sessionId/:requestId/heartbeat and state ' +
          'ERROR), then resume with an empty body {}; to say something, send a text block ' +
          '{ "type": "text", "text": "..." }',
      );
      expect(error.details?.issues).toHaveLength(1);
    }
    expect((await h.call('GET', `/v1/messages/${sessionId}`)).body.messages).toEqual([]);
  });

  it('a tool_result block is a 400 saying the server inserts it', async () => {
    const h = harness();
    const sessionId = await h.createSession();
    const res = await h.call('POST', `/v1/messages/${sessionId}`, {
      content: [
        { type: 'text', text: 'here' },
        { type: 'tool_result', tool_use_id: 't', content: [], is_error: false },
      ],
    });
    expect(expectError(res, 400, 'invalid_request').message).toMatch(
      /^content\.1\.type: a user message cannot hold a tool_result block: tool_result blocks are inserted by the server/,
    );
  });
});
