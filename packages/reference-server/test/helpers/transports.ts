import {
  createReferenceServer,
  ManualClock,
  type ReferenceServer,
  type ReferenceServerOptions,
  startServer,
} from '@parley/reference-server';
import { createHandlers } from '@parley/reference-server/msw';
import { setupServer } from 'msw/node';
import { type Call, caller } from './api.js';

export interface Transport {
  name: string;
  /** Starts a server reachable through global fetch. */
  start(
    options: ReferenceServerOptions,
  ): Promise<{ server: ReferenceServer; baseUrl: string; close(): Promise<void> }>;
}

/** node:http through `startServer({ port: 0 })`. */
export const realHttp: Transport = {
  name: 'real HTTP',
  async start(options) {
    const running = await startServer({ port: 0, ...options });
    return { server: running.server, baseUrl: running.url, close: () => running.close() };
  },
};

/** msw intercepting global fetch (`setupServer(...createHandlers(...))`). */
export const msw: Transport = {
  name: 'msw',
  async start(options) {
    const server = createReferenceServer(options);
    const baseUrl = 'https://parley.msw.test';
    const mock = setupServer(...createHandlers(server, { baseUrl }));
    mock.listen({ onUnhandledRequest: 'error' });
    return {
      server,
      baseUrl,
      close: async () => {
        server.abortReplies();
        mock.close();
      },
    };
  },
};

export const TRANSPORTS = [realHttp, msw];

export async function startWith(transport: Transport, options: ReferenceServerOptions = {}) {
  const clock = new ManualClock(1_000_000);
  const started = await transport.start({ clock, ...options });
  const call: Call = caller((request) => fetch(request), started.baseUrl);
  const createSession = async () => (await call('POST', '/v1/sessions')).body.sessionId as string;
  const stream = (sessionId: string, body: unknown, signal?: AbortSignal) =>
    fetch(`${started.baseUrl}/v1/messages/${sessionId}/stream`, {
      method: 'POST',
      headers: { authorization: 'Bearer parley-demo-token', 'content-type': 'application/json' },
      body: JSON.stringify(body),
      ...(signal === undefined ? {} : { signal }),
    });
  return { ...started, clock, call, createSession, stream };
}
