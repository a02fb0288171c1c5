import type { ContentBlock, Message, ToolResultBlock } from '@parley/protocol';
import { APIError } from '@parley/sdk';
import { expect } from 'vitest';

/** What an API error must carry. */
export interface ExpectedAPIError {
  status: number;
  code?: string;
}

/** The value a call rejected with; fails the test if it resolved. */
export async function rejection(call: Promise<unknown> | (() => Promise<unknown>)): Promise<unknown> {
  try {
    await (typeof call === 'function' ? call() : call);
  } catch (error) {
    return error;
  }
  throw new Error('Expected the call to fail, but it succeeded');
}

/**
 * Awaits a rejection and checks it is the SDK error class the status maps to (`instanceof`), with
 * the status, the code and the server's request id.
 */
export async function expectAPIError<E extends APIError>(
  call: Promise<unknown> | (() => Promise<unknown>),
  errorClass: abstract new (...args: never[]) => E,
  expected: ExpectedAPIError,
): Promise<E> {
  const error = await rejection(call);
  if (!(error instanceof errorClass)) {
    const what = error instanceof APIError ? `${error.name} ${error.message}` : String(error);
    throw new Error(`Expected ${errorClass.name} (${expected.status}), got ${what}`);
  }
  expect(error.status).toBe(expected.status);
  if (expected.code !== undefined) expect(error.code).toBe(expected.code);
  expect(error.requestId).toEqual(expect.any(String));
  return error;
}

/** The joined text blocks of a message. */
export function textOf(message: Pick<Message, 'content'> | undefined): string {
  return (message?.content ?? []).map((block) => (block.type === 'text' ? block.text : '')).join('');
}

/** The tool_result blocks of a message. */
export function toolResultsOf(message: Pick<Message, 'content'> | undefined): ToolResultBlock[] {
  return (message?.content ?? []).filter((b: ContentBlock): b is ToolResultBlock => b.type === 'tool_result');
}

/** The one tool_result of a message's results answering `toolUseId`. */
export function resultFor(message: Pick<Message, 'content'> | undefined, toolUseId: string): ToolResultBlock {
  const result = toolResultsOf(message).find((b) => b.tool_use_id === toolUseId);
  if (!result) throw new Error(`No tool_result for ${toolUseId}`);
  return result;
}

/** The request id of the n-th pending tool (fails the test when there is none). */
export function requestIdOf(reply: { pendingTools: readonly { requestId: string }[] }, n = 0): string {
  const pending = reply.pendingTools[n];
  if (!pending) throw new Error(`The reply has no pending tool #${n}`);
  return pending.requestId;
}
