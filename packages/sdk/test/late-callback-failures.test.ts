import { createReferenceServer } from '@parley/reference-server';
import { defineTool, Parley } from '@parley/sdk';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { CallbackFailures } from '../src/internal/callback-failures.js';

afterEach(() => {
  vi.restoreAllMocks();
});

const echo = defineTool({
  name: 'echo',
  description: 'Echoes',
  input: z.object({ text: z.string() }),
  run: ({ text }) => ({ text }),
});

describe('a callback failure the caller can no longer get is reported, not dropped', () => {
  it('a promise onText returned that rejects after the loop has moved on reaches console.error', async () => {
    const errors: unknown[] = [];
    vi.spyOn(console, 'error').mockImplementation((error: unknown) => {
      errors.push(error);
    });
    const server = createReferenceServer();
    const client = new Parley({
      baseUrl: 'http://parley.test',
      token: 'parley-demo-token',
      fetch: server.fetch,
    });
    const { sessionId } = await client.sessions.create({ tools: [echo] });
    let rejectLater: ((reason: unknown) => void) | undefined;
    const result = await client.runToolLoop({
      sessionId,
      content: 'hello',
      stream: true,
      onText: () => {
        if (rejectLater) return undefined;
        return new Promise((_, reject) => {
          rejectLater = reject;
        });
      },
    });
    expect(result.status).toBe('done');
    rejectLater?.(new Error('saved too late'));
    await vi.waitFor(() => expect(errors).toHaveLength(1));
    expect(String(errors[0])).toBe('ParleyError: runToolLoop: onText threw: saved too late');
  });

  it('a second failure while the first is kept is reported too', () => {
    const reported: unknown[] = [];
    const failures = new CallbackFailures('runTool', (error) => reported.push(error.message));
    failures.record('onHeartbeat', new Error('first'));
    failures.record('onHeartbeatError', new Error('second'));
    expect(() => failures.throwIfFailed()).toThrow('runTool: onHeartbeat threw: first');
    expect(reported).toEqual(['runTool: onHeartbeatError threw: second']);
  });
});
