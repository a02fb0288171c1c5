import type { ContentBlock, Message, MessageReply, PendingTool, SendMessageRequest } from '@parley/protocol';
import type { ToolLoopClient, ToolLoopStream, ToolRequestOptions } from '@parley/sdk';
import { APIUserAbortError } from '@parley/sdk';
import { FakeTransport } from './fake-transport.js';

/** One scripted model turn: some text and/or client tool calls. */
export interface Turn {
  text?: string;
  tools?: Array<{ id: string; name: string; input: Record<string, unknown> }>;
}

/** What the script does for a send: a turn, a thrown error, or `'hang'` (until the signal aborts). */
export type ScriptEntry = Turn | Error | 'hang';

export interface SendRecord {
  mode: 'send' | 'stream';
  body: SendMessageRequest;
  options: ToolRequestOptions | undefined;
}

/**
 * A {@link ToolLoopClient} whose model replies follow a script, one entry per send or resume. It
 * numbers messages like the server (user turn, tool-result message on resume, assistant turn).
 */
export class FakeClient implements ToolLoopClient {
  readonly tools: FakeTransport;
  readonly sends: SendRecord[] = [];
  readonly #script: ScriptEntry[];
  #index = 0;
  #lastPending: PendingTool[] = [];

  readonly messages = {
    send: (
      sessionId: string,
      body: SendMessageRequest,
      options?: ToolRequestOptions,
    ): Promise<MessageReply> => {
      this.sends.push({ mode: 'send', body, options });
      return this.#reply(sessionId, body, options?.signal);
    },
    stream: (sessionId: string, body: SendMessageRequest, options?: ToolRequestOptions): ToolLoopStream => {
      this.sends.push({ mode: 'stream', body, options });
      const listeners: Array<(delta: string, snapshot: string) => void> = [];
      const reply = this.#reply(sessionId, body, options?.signal).then((r) => {
        // Deliver the assistant text in two deltas, as a stream would.
        const text = r.messages.find((m) => m.role === 'assistant')?.content.find((b) => b.type === 'text');
        if (text?.type === 'text' && text.text.length > 0) {
          const cut = Math.ceil(text.text.length / 2);
          for (const l of listeners) l(text.text.slice(0, cut), text.text.slice(0, cut));
          for (const l of listeners) l(text.text.slice(cut), text.text);
        }
        return r;
      });
      return {
        on(_event: 'text', listener: (delta: string, snapshot: string) => void) {
          listeners.push(listener);
          return this;
        },
        finalReply: () => reply,
      };
    },
  };

  constructor(script: ScriptEntry[], tools: FakeTransport = new FakeTransport()) {
    this.#script = script;
    this.tools = tools;
  }

  async #reply(
    sessionId: string,
    body: SendMessageRequest,
    signal: AbortSignal | undefined,
  ): Promise<MessageReply> {
    const entry = this.#script[this.sends.length - 1];
    if (entry === undefined) throw new Error(`FakeClient: no scripted turn for send #${this.sends.length}`);
    if (entry === 'hang') {
      await new Promise((_, reject) => {
        const abort = () => reject(new APIUserAbortError(undefined, { cause: signal?.reason }));
        if (signal?.aborted) abort();
        signal?.addEventListener('abort', abort, { once: true });
      });
    }
    if (entry instanceof Error) throw entry;
    const turn = entry as Turn;
    const messages: Message[] = [];
    if (body.content !== undefined) {
      const text = typeof body.content === 'string' ? body.content : body.content.map((b) => b.text).join('');
      messages.push(this.#message('user', [{ type: 'text', text }]));
    } else if (this.#lastPending.length > 0) {
      messages.push(
        this.#message(
          'user',
          this.#lastPending.map((p) => ({
            type: 'tool_result' as const,
            tool_use_id: p.requestId,
            content: [],
            is_error: false,
          })),
        ),
      );
    }
    const content: ContentBlock[] = [];
    if (turn.text) content.push({ type: 'text', text: turn.text });
    for (const t of turn.tools ?? [])
      content.push({ type: 'tool_use', id: t.id, name: t.name, input: t.input });
    messages.push(this.#message('assistant', content));
    const pendingTools: PendingTool[] = (turn.tools ?? []).map((t) => ({
      requestId: t.id,
      name: t.name,
      input: t.input,
      state: 'PENDING',
      createdAt: 0,
      deadlineAt: 600_000,
    }));
    this.#lastPending = pendingTools;
    return {
      sessionId,
      messages,
      stopReason: pendingTools.length > 0 ? 'tool_use' : 'end_turn',
      pendingTools,
      heartbeatTimeoutMs: 15_000,
      usage: { inputTokens: 1, outputTokens: 2, totalTokens: 3 },
    };
  }

  #message(role: Message['role'], content: ContentBlock[]): Message {
    return { role, index: this.#index++, content, deletedAt: null, createdAt: 0 };
  }
}
