import { createReferenceServer, type ReferenceServerOptions, startServer } from '@parley/reference-server';
import {
  defaults,
  defineTool,
  Parley,
  runToolLoop,
  ToolOutputTooLargeError,
  toolsToExtensions,
} from '@parley/sdk';
import { runTool } from '@parley/sdk/tools';
import { describe, expect, test } from 'vitest';
import { z } from 'zod';

/** A tool whose output carries `size` characters of text. */
const exportRows = defineTool({
  name: 'export_rows',
  description: 'All rows of a table, as text',
  input: z.object({ size: z.number() }),
  run: ({ size }) => ({ rows: 'x'.repeat(size) }),
});

/** Bytes of `{"response":{"rows":"…","state":"COMPLETE"}}` around the text itself. */
const ENVELOPE = JSON.stringify({ response: { rows: '', state: 'COMPLETE' } }).length;

/** A reference server in process, and a client that counts the tool responses it sends. */
async function setup(serverOptions: ReferenceServerOptions = {}) {
  const server = createReferenceServer(serverOptions);
  const responses: number[] = [];
  const client = new Parley({
    baseUrl: 'http://parley.test',
    token: 'parley-demo-token',
    fetch: async (input, init) => {
      const request = new Request(input, init);
      const response = await server.fetch(request);
      if (new URL(request.url).pathname.startsWith('/v1/tools/response/')) responses.push(response.status);
      return response;
    },
  });
  const { sessionId } = await client.sessions.create({
    customizations: { agentId: 'assistant', extensions: { tools: toolsToExtensions([exportRows]) } },
  });
  return { client, sessionId, responses };
}

describe('a tool output over the server body limit reaches the model as an ERROR', () => {
  test('an output over 1 MiB is not sent: the model gets its size, and the loop finishes', async () => {
    expect(defaults.tools.maxBodyBytes).toBe(1024 * 1024);
    const { client, sessionId, responses } = await setup();
    const size = Math.round(2.1 * 1024 * 1024);
    const result = await runToolLoop(client, {
      sessionId,
      content: `/tool export_rows {"size":${size}}\n/then The table is too large to show.`,
      tools: [exportRows],
    });

    const message =
      'Tool "export_rows" returned 2.1 MiB of output, over the server\'s 1 MiB limit for a request body; ' +
      'return less (a summary or one page of it)';
    expect(result).toMatchObject({ status: 'done', finalText: 'The table is too large to show.' });
    const [call] = result.steps[0]?.toolResults ?? [];
    expect(call).toMatchObject({ status: 'ERROR', error: message });
    expect(call?.cause instanceof ToolOutputTooLargeError).toBe(true);
    expect(call?.cause).toMatchObject({ bytes: size + ENVELOPE, maxBytes: 1024 * 1024 });
    // Checked before sending: no response body went out at all.
    expect(responses).toEqual([]);
    expect(result.messages[2]?.content).toMatchObject([
      { type: 'tool_result', is_error: true, content: [{ type: 'text', text: message }] },
    ]);
  });

  test('a server limit lower than assumed: its 413 names the limit, the model hears of it, the loop finishes', async () => {
    const { client, sessionId, responses } = await setup({ maxBodyBytes: 64 * 1024 });
    const result = await runToolLoop(client, {
      sessionId,
      content: '/tool export_rows {"size":100000}\n/then Too large.',
      tools: [exportRows],
    });

    expect(result).toMatchObject({ status: 'done', finalText: 'Too large.' });
    const [call] = result.steps[0]?.toolResults ?? [];
    expect(call).toMatchObject({
      status: 'ERROR',
      error:
        'Tool "export_rows" returned 97.7 KiB of output, over the server\'s 64 KiB limit for a request body; ' +
        'return less (a summary or one page of it)',
    });
    expect(call?.cause).toMatchObject({ bytes: 100_000 + ENVELOPE, maxBytes: 64 * 1024 });
    // The server refused the body once (413, not retried); the ERROR report went to the other endpoint.
    expect(responses).toEqual([413]);
    expect(await client.tools.get(sessionId, call?.requestId ?? '')).toMatchObject({ state: 'ERROR' });
  });

  test('over HTTP too: the 413 of a server with a lower limit arrives, and the model hears of it', async () => {
    const running = await startServer({ port: 0, maxBodyBytes: 64 * 1024 });
    try {
      const client = new Parley({ baseUrl: running.url, token: 'parley-demo-token' });
      const { sessionId } = await client.sessions.create({
        customizations: { agentId: 'assistant', extensions: { tools: toolsToExtensions([exportRows]) } },
      });
      const result = await runToolLoop(client, {
        sessionId,
        content: '/tool export_rows {"size":300000}\n/then Too large.',
        tools: [exportRows],
      });
      expect(result).toMatchObject({ status: 'done', finalText: 'Too large.' });
      expect(result.steps[0]?.toolResults[0]).toMatchObject({
        status: 'ERROR',
        error: expect.stringContaining("returned 293 KiB of output, over the server's 64 KiB limit"),
      });
    } finally {
      await running.close();
    }
  });

  test('an output one byte over the limit gives exact counts rather than two equal rounded sizes', async () => {
    const maxBodyBytes = 10 * 1024;
    const oneOver = async (limit: number) => {
      const { client, sessionId } = await setup();
      const reply = await client.messages.send(sessionId, {
        content: `/tool export_rows {"size":${maxBodyBytes - ENVELOPE + 1}}`,
      });
      const pending = reply.pendingTools[0];
      if (!pending) throw new Error('expected a pending tool call');
      return runTool(client, { sessionId, pending, tool: exportRows, maxBodyBytes: limit });
    };
    expect((await oneOver(maxBodyBytes + 1)).status).toBe('COMPLETE');
    const over = await oneOver(maxBodyBytes);
    expect(over).toMatchObject({
      status: 'ERROR',
      error: expect.stringContaining("returned 10241 bytes of output, over the server's 10240-byte limit"),
    });
    expect((over.cause as ToolOutputTooLargeError).bytes).toBe(maxBodyBytes + 1);
  });

  test('the size is counted in UTF-8 bytes, as the server counts it, not in characters', async () => {
    const limit = 16 * 1024;
    const { client, sessionId, responses } = await setup({ maxBodyBytes: limit });
    const text = 'é😀'.repeat(2000); // 6000 UTF-16 units, 12000 bytes
    const wide = defineTool({ ...exportRows, run: () => ({ rows: `${text}${text}` }) });
    const reply = await client.messages.send(sessionId, { content: '/tool export_rows {"size":0}' });
    const pending = reply.pendingTools[0];
    if (!pending) throw new Error('expected a pending tool call');
    const result = await runTool(client, { sessionId, pending, tool: wide, maxBodyBytes: limit });
    expect(result.status).toBe('ERROR');
    expect(result.cause).toMatchObject({ bytes: 24_000 + ENVELOPE, maxBytes: limit });
    expect(responses).toEqual([]);
  });

  test('an output JSON cannot carry (a bigint) is an ERROR the model reads, not a rejected run', async () => {
    const { client, sessionId, responses } = await setup();
    const big = defineTool({ ...exportRows, run: () => ({ rows: 10n }) });
    const result = await runToolLoop(client, {
      sessionId,
      content: '/tool export_rows {"size":1}\n/then No rows.',
      tools: [big],
    });
    expect(result).toMatchObject({ status: 'done', finalText: 'No rows.' });
    expect(result.steps[0]?.toolResults[0]).toMatchObject({
      status: 'ERROR',
      error:
        'Tool "export_rows" returned output that cannot be sent as JSON: Do not know how to serialize a BigInt',
    });
    expect(responses).toEqual([]);
  });

  test('a maxBodyBytes that is not a positive number is refused', async () => {
    const { client, sessionId } = await setup();
    const pending = { requestId: 'toolu_1', name: 'export_rows', input: { size: 1 } };
    for (const maxBodyBytes of [0, -1, Number.NaN]) {
      await expect(runTool(client, { sessionId, pending, tool: exportRows, maxBodyBytes })).rejects.toThrow(
        `runTool: maxBodyBytes must be a positive number of bytes, got ${maxBodyBytes}`,
      );
      await expect(runToolLoop(client, { sessionId, tools: [exportRows], maxBodyBytes })).rejects.toThrow(
        `runToolLoop: maxBodyBytes must be a positive number of bytes, got ${maxBodyBytes}`,
      );
    }
  });
});
