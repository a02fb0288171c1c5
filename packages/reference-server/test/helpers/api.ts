import type { ErrorBody, MessageReply } from '@parley/protocol';
import {
  createReferenceServer,
  ManualClock,
  type Model,
  type ReferenceServer,
  type ReferenceServerOptions,
} from '@parley/reference-server';
import { expect } from 'vitest';

export const BASE_URL = 'http://parley.test';
export const DEMO_TOKEN = 'parley-demo-token';
export const USERS = [
  { name: 'alice', token: 'alice-token' },
  { name: 'bob', token: 'bob-token' },
];

// biome-ignore lint/suspicious/noExplicitAny: test responses are read loosely; typed where it matters
export interface ApiResponse<T = any> {
  status: number;
  headers: Headers;
  /** Parsed JSON body, or undefined for an empty body. */
  body: T;
  text: string;
}

/** Sends one request to a reference server in-process. */
// biome-ignore lint/suspicious/noExplicitAny: as above
export type Call = <T = any>(
  method: string,
  path: string,
  body?: unknown,
  init?: {
    token?: string | null;
    /** The control token sent to `/_parley/` paths; null sends none. Default: the caller's. */
    controlToken?: string | null;
    headers?: Record<string, string>;
    rawBody?: BodyInit;
    signal?: AbortSignal;
  },
) => Promise<ApiResponse<T>>;

export function caller(
  fetchImpl: (request: Request) => Promise<Response>,
  baseUrl = BASE_URL,
  token = DEMO_TOKEN,
  controlToken?: string,
): Call {
  return async (method, path, body, init = {}) => {
    const headers: Record<string, string> = { ...init.headers };
    const bearer = init.token === undefined ? token : init.token;
    if (bearer !== null) headers.authorization = `Bearer ${bearer}`;
    const control = init.controlToken === undefined ? controlToken : init.controlToken;
    if (control != null && path.startsWith('/_parley') && headers['x-parley-control-token'] === undefined) {
      headers['x-parley-control-token'] = control;
    }
    const requestInit: RequestInit = { method, headers };
    if (init.rawBody !== undefined) requestInit.body = init.rawBody;
    else if (body !== undefined) {
      requestInit.body = JSON.stringify(body);
      headers['content-type'] = 'application/json';
    }
    if (init.signal !== undefined) requestInit.signal = init.signal;
    const response = await fetchImpl(new Request(baseUrl + path, requestInit));
    const text = await response.text();
    return {
      status: response.status,
      headers: response.headers,
      body: text === '' ? undefined : JSON.parse(text),
      text,
    };
  };
}

export interface Harness {
  server: ReferenceServer;
  clock: ManualClock;
  call: Call;
  /** Creates a session (asserting 201) and returns its id. */
  createSession(customizations?: unknown): Promise<string>;
  /** Buffered send asserting 200. */
  send(sessionId: string, content?: unknown): Promise<MessageReply>;
}

/** A reference server on a ManualClock (the given one, else one starting at 1 000 000) with the given options. */
export function harness(options: ReferenceServerOptions & { model?: Model } = {}): Harness {
  const clock = options.clock instanceof ManualClock ? options.clock : new ManualClock(1_000_000);
  const server = createReferenceServer({ clock, ...options });
  const token = options.users?.[0]?.token ?? DEMO_TOKEN;
  const call = caller(server.fetch, BASE_URL, token, server.controlToken);
  return {
    server,
    clock,
    call,
    async createSession(customizations) {
      const res = await call(
        'POST',
        '/v1/sessions',
        customizations === undefined ? undefined : { customizations },
      );
      expect(res.status, res.text).toBe(201);
      return res.body.sessionId as string;
    },
    async send(sessionId, content) {
      const res = await call<MessageReply>(
        'POST',
        `/v1/messages/${sessionId}`,
        content === undefined ? {} : { content },
      );
      expect(res.status, res.text).toBe(200);
      return res.body;
    },
  };
}

/** Asserts the protocol's error body and returns its code. */
export function expectError(res: ApiResponse<ErrorBody>, status: number, code: string): ErrorBody['error'] {
  expect(res.status, res.text).toBe(status);
  expect(res.headers.get('content-type')).toMatch(/application\/json/);
  expect(typeof res.body?.error?.message).toBe('string');
  expect(res.body.error.code).toBe(code);
  return res.body.error;
}
