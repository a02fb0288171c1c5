import type { WithResponse } from '../core/api-promise.js';
import type { RequestOptions } from '../core/http-client.js';
import { APIError } from '../errors/index.js';
import type { Message, ToolCall, ToolUseBlock } from '../wire/index.js';
import type { RecoveryCall, RecoveryClient } from './recovery-call.js';

/**
 * The reads a recovery makes: the live conversation, and the tool calls of its last message.
 * The caller's headers go with them (an `x-parley-fault` included), not its timeout.
 */
export class SessionView {
  readonly #client: RecoveryClient;
  readonly #sessionId: string;
  readonly #headers: Record<string, string> | undefined;

  constructor(client: RecoveryClient, call: RecoveryCall) {
    this.#client = client;
    this.#sessionId = call.sessionId;
    this.#headers = call.options.headers;
  }

  /**
   * The live messages in index order (retracted ones are left out), with the response. `once`: a
   * recovery attempt's read, tried once (the next attempt is its retry); else retried as any read.
   */
  messages(signal: AbortSignal | undefined, once: boolean): Promise<WithResponse<Message[]>> {
    return this.#client.messages.export(this.#sessionId, {}, this.#options(signal, once)).withResponse();
  }

  /**
   * The tool call of a `tool_use` block, or `undefined` for a server tool's (the service has no
   * call). A recovery attempt's read: tried once.
   */
  async toolCall(use: ToolUseBlock, signal: AbortSignal | undefined): Promise<ToolCall | undefined> {
    try {
      return await this.#client.tools.get(this.#sessionId, use.id, this.#options(signal, true));
    } catch (error) {
      if (error instanceof APIError && error.status === 404) return undefined;
      throw error;
    }
  }

  #options(signal: AbortSignal | undefined, once: boolean): RequestOptions {
    return {
      ...(this.#headers && { headers: this.#headers }),
      ...(signal && { signal }),
      ...(once && { maxRetries: 0 }),
    };
  }
}

/** The highest index of `messages`, or -1 for none. */
export function lastIndexOf(messages: readonly Message[]): number {
  let last = -1;
  for (const message of messages) if (message.index > last) last = message.index;
  return last;
}

/** A user turn the client wrote (text), as opposed to server-inserted tool results. */
export function isClientTurn(message: Message): boolean {
  return message.role === 'user' && message.content.some((block) => block.type === 'text');
}

export function toolUsesOf(message: Message): ToolUseBlock[] {
  return message.content.filter((block): block is ToolUseBlock => block.type === 'tool_use');
}
