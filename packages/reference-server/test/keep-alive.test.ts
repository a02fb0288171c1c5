import { Agent, request as httpRequest, type IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';
import { type RunningServer, startServer } from '@parley/reference-server/node';
import { afterEach, describe, expect, test } from 'vitest';

let running: RunningServer | undefined;
afterEach(async () => {
  await running?.close();
  running = undefined;
});

/** GET `path` on a keep-alive agent; the response with its body read, and the socket it came on. */
function get(
  agent: Agent,
  port: number,
  path: string,
): Promise<{ response: IncomingMessage; socket: Socket }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ agent, host: '127.0.0.1', port, path }, (response) => {
      const { socket } = response;
      response.resume();
      response.on('end', () => resolve({ response, socket }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('an idle keep-alive connection stays open a minute, and close() still ends it', () => {
  test('every answer announces Keep-Alive: timeout=60 and the connection is reused', async () => {
    running = await startServer({ port: 0 });
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    try {
      const first = await get(agent, running.port, '/healthz');
      const second = await get(agent, running.port, '/v1/sessions');
      expect(first.response.headers['keep-alive']).toBe('timeout=60');
      expect(second.response.headers['keep-alive']).toBe('timeout=60');
      expect(second.socket).toBe(first.socket);
    } finally {
      agent.destroy();
    }
  });

  test('close() closes an idle keep-alive connection at once, without waiting out the minute', async () => {
    running = await startServer({ port: 0 });
    const agent = new Agent({ keepAlive: true });
    try {
      const { socket } = await get(agent, running.port, '/healthz');
      const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
      expect(socket.destroyed).toBe(false);
      await running.close();
      running = undefined;
      await closed;
      expect(socket.destroyed).toBe(true);
    } finally {
      agent.destroy();
    }
  });
});
