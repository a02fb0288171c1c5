import {
  createReferenceServer,
  type ExtensionHostOptions,
  ManualClock,
  type ReferenceServer,
} from '@parley/reference-server';
import {
  type ContentBlock,
  type Message,
  Parley,
  type ParleyOptions,
  type ToolResultBlock,
  type ToolUseBlock,
} from '@parley/sdk';
import { afterEach } from 'vitest';

export const BASE_URL = 'http://parley.test';
export const TOKEN = 'parley-demo-token';

export interface Harness {
  server: ReferenceServer;
  clock: ManualClock;
  client: Parley;
  /** Request lines (`POST /v1/messages/...`) the client sent, in order. */
  requests: string[];
  /** The responses, in order: request line, status and `Retry-After` header. */
  responses: { request: string; status: number; retryAfter: string | null }[];
}

const open: ReferenceServer[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((server) => server.close()));
});

/**
 * A reference server with extensions (built-ins plus `extensions`) on a ManualClock, and an SDK
 * client calling it in-process through fetch injection. Closed after each test.
 */
export function harness(
  extensions: Omit<ExtensionHostOptions, 'clock'> = {},
  clientOptions: Partial<ParleyOptions> = {},
): Harness {
  const clock = new ManualClock(Date.UTC(2025, 3, 1));
  const server = createReferenceServer({ clock, extensions });
  open.push(server);
  const requests: string[] = [];
  const responses: Harness['responses'] = [];
  const client = new Parley({
    baseUrl: BASE_URL,
    token: TOKEN,
    fetch: async (request) => {
      const line = `${request.method} ${new URL(request.url).pathname}`;
      requests.push(line);
      const response = await server.fetch(request);
      responses.push({
        request: line,
        status: response.status,
        retryAfter: response.headers.get('retry-after'),
      });
      return response;
    },
    ...clientOptions,
  });
  return { server, clock, client, requests, responses };
}

/** `role:index` followed by the block kinds (`tool_use:NAME`) of each message. */
export function shape(messages: readonly Pick<Message, 'role' | 'index' | 'content'>[]): string[][] {
  return messages.map((m) => [
    `${m.role}:${m.index}`,
    ...m.content.map((b) => (b.type === 'tool_use' ? `tool_use:${b.name}` : b.type)),
  ]);
}

export function toolUses(message: { content: ContentBlock[] } | undefined): ToolUseBlock[] {
  return (message?.content ?? []).filter((b): b is ToolUseBlock => b.type === 'tool_use');
}

export function toolResults(message: { content: ContentBlock[] } | undefined): ToolResultBlock[] {
  return (message?.content ?? []).filter((b): b is ToolResultBlock => b.type === 'tool_result');
}

/** The JSON part of a tool result (the first `json` content entry). */
// biome-ignore lint/suspicious/noExplicitAny: tool result JSON is read loosely in assertions
export function jsonOf(result: ToolResultBlock | undefined): any {
  const part = result?.content.find((c) => c.type === 'json');
  return part?.type === 'json' ? part.json : undefined;
}

/** The text parts of a tool result, joined. */
export function textOf(result: ToolResultBlock | undefined): string {
  return (result?.content ?? []).map((c) => (c.type === 'text' ? c.text : '')).join('');
}

/** The text of a message's text blocks, joined. */
export function messageText(message: { content: ContentBlock[] } | undefined): string {
  return (message?.content ?? []).map((b) => (b.type === 'text' ? b.text : '')).join('');
}
