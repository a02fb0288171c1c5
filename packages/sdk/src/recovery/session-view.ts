import type { WithResponse } from '../core/api-promise.js';
import type { RequestOptions } from '../core/http-client.js';
import { APIError } from '../errors/index.js';
import type { Message, ToolCall, ToolUseBlock } from '../wire/index.js';
import type { RecoveryTarget } from './recovery-target.js';

/** The reads a recovery makes: the live conversation, and the tool calls of its last message. */
export class SessionView {
  readonly #target: RecoveryTarget;
  readonly #options: RequestOptions;

  constructor(target: RecoveryTarget) {
    this.#target = target;
    // The caller's headers go with the reads too (an `x-parley-fault` included), not its timeout.
    this.#options = target.options.headers ? { headers: target.options.headers } : {};
  }

  /** The live messages in index order (retracted ones are left out), with the response. */
  messages(signal: AbortSignal | undefined): Promise<WithResponse<Message[]>> {
    return this.#target.messages.export(this.#target.sessionId, {}, this.#with(signal)).withResponse();
  }

  /** The tool call of a `tool_use` block, or `undefined` for a server tool's (the service has no call). */
  async toolCall(use: ToolUseBlock, signal: AbortSignal | undefined): Promise<ToolCall | undefined> {
    try {
      return await this.#target.tools.get(this.#target.sessionId, use.id, this.#with(signal));
    } catch (error) {
      if (error instanceof APIError && error.status === 404) return undefined;
      throw error;
    }
  }

  #with(signal: AbortSignal | undefined): RequestOptions {
    return signal ? { ...this.#options, signal } : this.#options;
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
