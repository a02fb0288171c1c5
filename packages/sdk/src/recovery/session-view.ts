import type { WithResponse } from '../core/api-promise.js';
import type { HttpClient, RequestOptions } from '../core/http-client.js';
import { ExportMessagesShape, ToolCallShape } from '../core/response-shapes.js';
import { isNotFoundError } from '../errors/index.js';
import { pathSegment } from '../internal/path.js';
import type { ExportMessagesResponse, Message, ToolCall, ToolUseBlock } from '../wire/index.js';

/** The reads a recovery makes: the live conversation, and the tool calls of its last message. */
export class SessionView {
  readonly #http: HttpClient;
  readonly #sessionId: string;
  readonly #options: RequestOptions;

  constructor(http: HttpClient, sessionId: string, options: RequestOptions) {
    this.#http = http;
    this.#sessionId = sessionId;
    // The caller's headers go with the reads too (an `x-parley-fault` included), not its timeout.
    this.#options = options.headers ? { headers: options.headers } : {};
  }

  /** The live messages in index order (retracted ones are left out), with the response. */
  messages(signal: AbortSignal | undefined): Promise<WithResponse<ExportMessagesResponse>> {
    return this.#http
      .request<ExportMessagesResponse>(
        {
          method: 'GET',
          path: `v1/messages/${pathSegment(this.#sessionId)}`,
          idempotent: true,
          shape: ExportMessagesShape,
        },
        this.#with(signal),
      )
      .withResponse();
  }

  /** The tool call of a `tool_use` block, or `undefined` for a server tool's (the service has no call). */
  async toolCall(use: ToolUseBlock, signal: AbortSignal | undefined): Promise<ToolCall | undefined> {
    const path = `v1/tools/request/${pathSegment(this.#sessionId)}/${pathSegment(use.id)}`;
    try {
      return await this.#http.request<ToolCall>(
        { method: 'GET', path, idempotent: true, shape: ToolCallShape },
        this.#with(signal),
      );
    } catch (error) {
      if (isNotFoundError(error)) return undefined;
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
