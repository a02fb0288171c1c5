import {
  CreateSessionRequestSchema,
  CreateSessionResponseSchema,
  ExportMessagesResponseSchema,
  HeartbeatRequestSchema,
  ListSessionsResponseSchema,
  MessageReplySchema,
  RewindRequestSchema,
  RewindResponseSchema,
  SendMessageRequestSchema,
  ToolCallSchema,
  ToolResponseRequestSchema,
} from '@parley/protocol';
import type { z } from 'zod';

/** What the protocol says of one operation's bodies. */
export interface ProtocolOperation {
  /** `POST /v1/messages/{sessionId}/stream`: how the report names it. */
  readonly name: string;
  /** The request body's schema; undefined when the operation takes none. */
  readonly request?: z.ZodType;
  /** Whether the request body may be left out. */
  readonly requestOptional?: boolean;
  /** The success status. */
  readonly status: number;
  /** The success body's schema; undefined for an empty success body. */
  readonly response?: z.ZodType;
  /** The success body is a streamed reply (`{"sessionId", "events": [...]}`). */
  readonly stream?: boolean;
}

const SEGMENT = '[^/]+';

/** Every `/v1` operation (docs/protocol.md), matched by method and path. */
const OPERATIONS: ReadonlyArray<{ method: string; path: RegExp; operation: ProtocolOperation }> = [
  op('GET', '/v1/sessions', { status: 200, response: ListSessionsResponseSchema }),
  op('POST', '/v1/sessions', {
    status: 201,
    request: CreateSessionRequestSchema,
    requestOptional: true,
    response: CreateSessionResponseSchema,
  }),
  op('DELETE', '/v1/sessions/{sessionId}', { status: 204 }),
  op('GET', '/v1/messages/{sessionId}', { status: 200, response: ExportMessagesResponseSchema }),
  op('POST', '/v1/messages/{sessionId}', {
    status: 200,
    request: SendMessageRequestSchema,
    requestOptional: true,
    response: MessageReplySchema,
  }),
  op('POST', '/v1/messages/{sessionId}/stream', {
    status: 200,
    request: SendMessageRequestSchema,
    requestOptional: true,
    stream: true,
  }),
  op('POST', '/v1/messages/{sessionId}/rewind', {
    status: 200,
    request: RewindRequestSchema,
    response: RewindResponseSchema,
  }),
  op('GET', '/v1/tools/request/{sessionId}/{requestId}', { status: 200, response: ToolCallSchema }),
  op('POST', '/v1/tools/request/{sessionId}/{requestId}/heartbeat', {
    status: 200,
    request: HeartbeatRequestSchema,
  }),
  op('POST', '/v1/tools/response/{sessionId}/{requestId}', {
    status: 200,
    request: ToolResponseRequestSchema,
  }),
];

function op(
  method: string,
  template: string,
  operation: Omit<ProtocolOperation, 'name'>,
): { method: string; path: RegExp; operation: ProtocolOperation } {
  const path = new RegExp(`^${template.replace(/\{[^}]+\}/g, SEGMENT)}/?$`);
  return { method, path, operation: { name: `${method} ${template}`, ...operation } };
}

/** The operation a request is, by method and path; undefined for a path the protocol has not. */
export function protocolOperation(method: string, path: string): ProtocolOperation | undefined {
  for (const entry of OPERATIONS) {
    if (entry.method === method && entry.path.test(path)) return entry.operation;
  }
  return undefined;
}
