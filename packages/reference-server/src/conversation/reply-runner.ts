import {
  type ContentBlock,
  ERROR_CODES,
  type ErrorCode,
  type Message,
  type PendingTool,
  type StopReason,
  type ToolResultBlock,
  type ToolUseBlock,
  type Usage,
  type UserContentBlock,
} from '@parley/protocol';
import { HttpError, isHttpError } from '../http-error.js';
import { lendAbortState, type Model, ModelError, type ModelRequest } from '../model/model.js';
import type { StreamPace } from '../model/stream-pace.js';
import type { Clock } from '../time/clock.js';
import { abortable, abortRace } from '../utils/abortable.js';
import type { LazyAbortController } from '../utils/lazy-abort-controller.js';
import { AssistantMessageBuilder, type EmitEvent } from './assistant-message-builder.js';
import {
  errorResult,
  isEmptyConversation,
  liveMessages,
  type SendPlan,
  toolResultFor,
} from './conversation-state.js';
import type { ExtensionHost } from './extension-host.js';
import { emitMessage } from './message-events.js';
import { type ResolvedTools, resolveTools, type SessionSetup } from './session-setup.js';
import { appendMessage, type Session, sessionInfo } from './session-store.js';

/** Model calls one reply may make while the model keeps calling server tools. */
export const MAX_MODEL_CALLS_PER_REPLY = 8;

/** Stop reason of a reply cut off after {@link MAX_MODEL_CALLS_PER_REPLY} rounds of server tools. */
export const SERVER_TOOL_LIMIT_STOP_REASON = 'server_tool_limit';

export interface ReplyRunnerConfig {
  model: Model;
  clock: Clock;
  setup: SessionSetup;
  host: ExtensionHost | undefined;
  /** The pace of a session's replies (its own, else the server's); undefined: at once. */
  pace?: ((sessionId: string) => StreamPace | undefined) | undefined;
}

export interface ReplyRequest {
  session: Session;
  plan: SendPlan;
  /** The user's turn; undefined for a resume. */
  content: UserContentBlock[] | undefined;
  /** Lease extension: the sender's lease token; the client tool calls of the reply are leased to it. */
  leaseToken?: string | undefined;
  /** Aborts on client disconnect, session deletion or server shutdown; its signal is made on demand. */
  abort: LazyAbortController;
  /** Takes each stream event of the reply; undefined for a buffered reply (no event is built). */
  emit?: EmitEvent | undefined;
  /**
   * Backpressure of whoever takes the events: undefined while it can take more, otherwise a promise
   * that resolves once it can. Awaited after each model event, so a reply streams no faster than
   * its client reads.
   */
  ready?: () => Promise<void> | undefined;
}

/** A completed reply: the buffered response without `sessionId` and `heartbeatTimeoutMs`. */
export interface ReplyResult {
  messages: Message[];
  stopReason: StopReason;
  pendingTools: PendingTool[];
  usage: Usage;
}

/**
 * Runs one reply: stores the user's turn (or the tool results of a resume), calls the model, runs
 * server tools inside the reply, and stops at a final answer or at client tool calls. On failure it
 * throws an HttpError (model failures: `model_error` or the ModelError's code); on abort it throws
 * the abort's reason. Messages completed before a failure stay; the message in progress is kept
 * retracted.
 */
export async function runReply(config: ReplyRunnerConfig, request: ReplyRequest): Promise<ReplyResult> {
  const { session, abort, emit } = request;
  const { clock } = config;
  const appended: Message[] = [];
  const usage: Usage = { inputTokens: 0, outputTokens: 0, totalTokens: 0 };
  const append = (role: Message['role'], content: ContentBlock[]) => {
    const message = appendMessage(session, role, content, clock.now());
    appended.push(message);
    emitMessage(message, emit);
    return message;
  };

  if (request.content !== undefined) {
    let prefetchError: unknown;
    // Prefetch for the first user message of the conversation (also after a rewind to its start).
    const host = config.host;
    if (
      host?.prefetch !== undefined &&
      isEmptyConversation(session) &&
      host.prefetches?.(sessionInfo(session)) !== false
    ) {
      const text = request.content.map((b) => b.text).join('\n');
      try {
        const signal = abort.signal;
        const context = await abortable(host.prefetch(sessionInfo(session), text, signal), signal);
        if (context !== undefined && context.length > 0)
          session.prefetched.add(append('system', context).index);
      } catch (error) {
        prefetchError = error;
      }
    }
    append('user', request.content);
    if (prefetchError !== undefined)
      throw abort.aborted ? abort.reason : toReplyError(prefetchError, 'Retrieval prefetch');
  } else if (request.plan.kind === 'resume-tools') {
    append(
      'user',
      request.plan.toolUses.map((use) => toolResultFor(session, use)),
    );
    for (const use of request.plan.toolUses) session.serverToolResults.delete(use.id);
  }

  for (let call = 0; call < MAX_MODEL_CALLS_PER_REPLY; call++) {
    const tools = await resolveTools(config.setup, config.host, session);
    const { message, stopReason } = await callModel(config, request, tools, usage);
    appended.push(message);
    const toolUses = message.content.filter((b): b is ToolUseBlock => b.type === 'tool_use');
    if (toolUses.length === 0) return { messages: appended, stopReason, pendingTools: [], usage };

    const clientUses = toolUses.filter((use) => !tools.server.has(use.name) || tools.client.has(use.name));
    const pendingTools = clientUses.map((use) =>
      session.toolCalls.pendingView(
        session.toolCalls.create(session.id, use.id, use.name, use.input, request.leaseToken),
      ),
    );
    for (const use of toolUses) {
      const tool = tools.server.get(use.name);
      if (tool === undefined || tools.client.has(use.name)) continue;
      session.serverToolResults.set(use.id, await runServerTool(session, use, tool, abort));
    }
    if (pendingTools.length > 0) return { messages: appended, stopReason: 'tool_use', pendingTools, usage };

    append(
      'user',
      toolUses.map((use) => toolResultFor(session, use)),
    );
    for (const use of toolUses) session.serverToolResults.delete(use.id);
  }
  return { messages: appended, stopReason: SERVER_TOOL_LIMIT_STOP_REASON, pendingTools: [], usage };
}

async function callModel(
  config: ReplyRunnerConfig,
  request: ReplyRequest,
  tools: ResolvedTools,
  usage: Usage,
): Promise<{ message: Message; stopReason: StopReason }> {
  const { session, abort, emit } = request;
  const { clock, setup } = config;
  const builder = new AssistantMessageBuilder(() => session.nextIndex++, emit);
  const modelRequest: ModelRequest = {
    sessionId: session.id,
    messages: liveMessages(session),
    system: setup.systemPrompt(session),
    tools: tools.list,
    customizations: session.customizations,
    agentId: session.agentId,
    modelId: session.modelId,
    parameters: setup.parameters(session),
    turn: countAssistantMessages(session),
    // Made only for a model that asks for it; the built-in ones read the lent abort state.
    get signal() {
      return abort.signal;
    },
    clock,
    pace: config.pace?.(session.id),
  };
  lendAbortState(modelRequest, abort);
  let iterator: AsyncIterator<unknown> | undefined;
  try {
    if (abort.aborted) throw abort.reason;
    iterator = config.model(modelRequest)[Symbol.asyncIterator]();
    const events = abortRace(abort);
    try {
      for (;;) {
        const next = await events.race(iterator.next());
        if (next.done) break;
        builder.handle(next.value as Parameters<AssistantMessageBuilder['handle']>[0]);
        const wait = request.ready?.();
        if (wait !== undefined) await events.race(wait);
      }
    } finally {
      events.dispose();
    }
    const { content, stopReason } = builder.finish();
    assertFreshToolUseIds(session, content);
    if (builder.usage !== undefined) {
      usage.inputTokens += builder.usage.inputTokens;
      usage.outputTokens += builder.usage.outputTokens;
      usage.totalTokens += builder.usage.totalTokens;
    }
    const message: Message = {
      role: 'assistant',
      index: builder.index ?? session.nextIndex++,
      content,
      deletedAt: null,
      createdAt: clock.now(),
    };
    session.messages.push(message);
    return { message, stopReason };
  } catch (error) {
    if (iterator?.return !== undefined) {
      try {
        void Promise.resolve(iterator.return()).catch(() => {});
      } catch {
        // A model whose return() throws is already being discarded.
      }
    }
    if (builder.index !== undefined) {
      // Keep the interrupted message retracted so its index stays used.
      const now = clock.now();
      session.messages.push({
        role: 'assistant',
        index: builder.index,
        content: builder.content(),
        deletedAt: now,
        createdAt: now,
      });
    }
    throw abort.aborted ? abort.reason : toReplyError(error, 'The model');
  }
}

async function runServerTool(
  session: Session,
  use: ToolUseBlock,
  tool: NonNullable<ReturnType<ResolvedTools['server']['get']>>,
  abort: LazyAbortController,
): Promise<ToolResultBlock> {
  try {
    const signal = abort.signal;
    const result = await abortable(tool.call(use.input, { sessionId: session.id, signal }), signal);
    return { type: 'tool_result', tool_use_id: use.id, content: result.content, is_error: result.isError };
  } catch (error) {
    if (abort.aborted) {
      session.serverToolResults.set(use.id, errorResult(use.id, `Tool ${use.name} was interrupted`));
      throw abort.reason;
    }
    const message = error instanceof Error ? error.message : String(error);
    return errorResult(use.id, `Tool ${use.name} failed: ${message}`);
  }
}

/** Assistant messages of the session so far, retracted ones included (counted, not filtered). */
function countAssistantMessages(session: Session): number {
  let count = 0;
  for (let i = 0; i < session.messages.length; i++) if (session.messages.roleAt(i) === 'assistant') count++;
  return count;
}

/** Tool-use ids name tool calls: a model that repeats one produced a malformed tool use. */
function assertFreshToolUseIds(session: Session, content: ContentBlock[]): void {
  const seen = new Set<string>();
  for (const use of session.messages.toolUses()) seen.add(use.id);
  for (const block of content) {
    if (block.type !== 'tool_use') continue;
    if (seen.has(block.id)) throw new ModelError(`The model reused the tool use id ${block.id}`);
    seen.add(block.id);
  }
}

/** Turns a model or prefetch failure into the HttpError the caller sees. */
function toReplyError(error: unknown, who: string): HttpError {
  if (isHttpError(error)) return error;
  if (error instanceof ModelError) {
    const code = (Object.hasOwn(ERROR_CODES, error.code) ? error.code : 'model_error') as ErrorCode;
    return new HttpError(code, error.message, { cause: error });
  }
  const message = error instanceof Error ? error.message : String(error);
  return new HttpError('model_error', `${who} failed: ${message}`, { cause: error });
}
