import type { Message, MessageReply, PendingTool, StopReason } from '../wire/index.js';

/**
 * The promises a streamed reply offers besides `finalReply()`, each read from it: the base of
 * `MessageStream`.
 */
export abstract class StreamResults {
  /** The complete reply, the same shape as `client.messages.send` returns. */
  abstract finalReply(): Promise<MessageReply>;

  /** The messages this call appended, in index order (authoritative copies from `replyStop`). */
  async finalMessages(): Promise<Message[]> {
    return (await this.finalReply()).messages;
  }

  /** The text of the reply's last assistant message (its text blocks joined). */
  async finalText(): Promise<string> {
    const { messages } = await this.finalReply();
    const last = messages.filter((m) => m.role === 'assistant').at(-1);
    if (!last) return '';
    return last.content.map((block) => (block.type === 'text' ? block.text : '')).join('');
  }

  /**
   * Why the model stopped (`end_turn`, `tool_use`, ...); `undefined` only for a reply the
   * `recover` option took from the session when nobody reported its stop reason.
   */
  async stopReason(): Promise<StopReason | undefined> {
    return (await this.finalReply()).stopReason;
  }

  /** The client tool calls to fulfil before resuming; same shape as the buffered reply's. */
  async pendingTools(): Promise<PendingTool[]> {
    return (await this.finalReply()).pendingTools;
  }

  /** Resolves when the stream is over; rejects with its error. */
  async done(): Promise<void> {
    await this.finalReply();
  }
}
