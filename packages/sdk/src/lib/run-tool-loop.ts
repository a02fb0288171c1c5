import { ToolNotDeclaredError } from '../errors/index.js';
import { linkedSignal } from '../internal/linked-signal.js';
import { mapConcurrent } from '../internal/map-concurrent.js';
import type {
  Message,
  MessageReply,
  PendingTool,
  SendMessageRequest,
  UserContentBlock,
} from '../wire/index.js';
import type { AnyTool } from './define-tool.js';
import { reportUnknownTool, runTool, type ToolRunResult } from './run-tool.js';
import type { DeclaredTools } from './session-tools.js';
import { type ToolLoopResult, ToolLoopRun, type ToolLoopStep } from './tool-loop-run.js';
import type { ToolClient, ToolRequestOptions } from './tool-transport.js';

/** Model replies per run when `maxSteps` is not set. */
export const DEFAULT_MAX_STEPS = 10;
/** Tool calls run at once when `concurrency` is not set. */
export const DEFAULT_TOOL_CONCURRENCY = 4;

/** The part of a streamed reply the loop uses; `client.messages.stream(...)` returns one. */
export interface ToolLoopStream {
  on(event: 'text', listener: (delta: string, snapshot: string) => void): unknown;
  finalReply(): Promise<MessageReply>;
}

/**
 * What the loop needs of a client: `messages.send` / `stream` and the tool endpoints, and, when it
 * has them, the tools of the sessions it created. A `Parley` client fits.
 */
export interface ToolLoopClient extends ToolClient {
  sessions?: { declaredTools?(sessionId: string): DeclaredTools | undefined };
  messages: {
    send(sessionId: string, body: SendMessageRequest, options?: ToolRequestOptions): Promise<MessageReply>;
    stream(sessionId: string, body: SendMessageRequest, options?: ToolRequestOptions): ToolLoopStream;
  };
}

export interface RunToolLoopOptions {
  sessionId: string;
  /** The user's turn. Leave it out to resume a conversation whose tool calls are settled. */
  content?: string | UserContentBlock[] | undefined;
  /**
   * The tools this worker runs; a call for any other name is answered with an ERROR naming these.
   * Default: the `tools` the session was created with (`client.sessions.create({ tools })`). A tool
   * the session does not declare is a `ToolNotDeclaredError` (when the client created the session).
   */
  tools?: readonly AnyTool[] | undefined;
  /** Most model replies in this run (default 10). The tools of the last one are still run and settled. */
  maxSteps?: number | undefined;
  /** Most tool calls running at once (default 4). */
  concurrency?: number | undefined;
  /** Aborts the request in flight and every running tool; the run rejects with `APIUserAbortError`. */
  signal?: AbortSignal | undefined;
  /** Stream each reply (`client.messages.stream`) instead of waiting for the buffered JSON. */
  stream?: boolean | undefined;
  /** Text deltas of assistant messages as they stream (only with `stream: true`). */
  onText?: ((delta: string, snapshot: string) => void) | undefined;
  /** Called after each step, its tools settled, before the loop resumes; the loop waits for it. */
  onStep?: ((step: ToolLoopStep) => void | Promise<void>) | undefined;
  /** Called with each failed heartbeat that did not end a tool's timer (for logging). */
  onHeartbeatError?: ((error: unknown, pending: PendingTool) => void) | undefined;
  /** Called after each successful heartbeat of a tool call, with the count so far. */
  onHeartbeat?: ((beats: number, pending: PendingTool) => void) | undefined;
  /** Called when a tool call starts running (before its handler), e.g. to show it. */
  onToolStart?: ((pending: PendingTool) => void) | undefined;
  /**
   * The server's request body limit: a tool output too large to send is reported to the model as
   * an ERROR, and the loop goes on (see `runTool`). Default 1 MiB.
   */
  maxBodyBytes?: number | undefined;
  /** Source of heartbeat and retry jitter, `[0, 1)`. */
  random?: (() => number) | undefined;
}

/**
 * Sends the user's turn and keeps the conversation going until the model stops asking for tools:
 * each reply's pending tool calls run in parallel (at most `concurrency` at once, each with its
 * automatic heartbeat, see `runTool`), are settled, and the conversation is resumed. Stops after
 * `maxSteps` replies with `status: 'max_steps'`. Returns a {@link ToolLoopRun}: await it for the
 * result or iterate it for each step.
 *
 * @example
 * const run = runToolLoop(client, { sessionId, content: 'Weather in Paris?', tools: [getWeather] });
 * for await (const step of run) console.log(step.step, step.toolResults.map((r) => r.status));
 * const { status, finalText } = await run;
 */
export function runToolLoop(client: ToolLoopClient, options: RunToolLoopOptions): ToolLoopRun {
  const maxSteps = options.maxSteps ?? DEFAULT_MAX_STEPS;
  const concurrency = options.concurrency ?? DEFAULT_TOOL_CONCURRENCY;
  if (!Number.isInteger(maxSteps) || maxSteps < 1)
    throw new RangeError(`runToolLoop: maxSteps must be an integer >= 1, got ${maxSteps}`);
  if (!Number.isInteger(concurrency) || concurrency < 1) {
    throw new RangeError(`runToolLoop: concurrency must be an integer >= 1, got ${concurrency}`);
  }
  const { maxBodyBytes } = options;
  if (maxBodyBytes !== undefined && !(maxBodyBytes > 0)) {
    throw new RangeError(`runToolLoop: maxBodyBytes must be a positive number of bytes, got ${maxBodyBytes}`);
  }
  const tools = new Map<string, AnyTool>();
  for (const tool of loopTools(client, options)) {
    if (tools.has(tool.name)) throw new TypeError(`runToolLoop: duplicate tool name "${tool.name}"`);
    tools.set(tool.name, tool);
  }
  return new ToolLoopRun(
    (emit, signal) => loop(client, options, { maxSteps, concurrency, tools }, emit, signal),
    options.signal,
  );
}

/**
 * The loop's tools: `options.tools`, else the ones the session was created with. Given tools must be
 * declared on the session when the client knows all its client tools: the model could never call
 * the others, and a run that silently never uses a tool is worse than an error.
 */
function loopTools(client: ToolLoopClient, options: RunToolLoopOptions): readonly AnyTool[] {
  const declared = client.sessions?.declaredTools?.(options.sessionId);
  if (options.tools === undefined) {
    if (declared && declared.tools.length > 0) return declared.tools;
    throw new TypeError(
      `runToolLoop: no tools for session ${options.sessionId}: pass tools, or create the session ` +
        'with client.sessions.create({ tools }) on this client',
    );
  }
  if (declared?.exhaustive) {
    const missing = options.tools.filter((tool) => !declared.names.includes(tool.name)).map((t) => t.name);
    if (missing.length > 0) {
      throw new ToolNotDeclaredError({
        sessionId: options.sessionId,
        toolNames: missing,
        declared: declared.names,
      });
    }
  }
  return options.tools;
}

async function loop(
  client: ToolLoopClient,
  options: RunToolLoopOptions,
  config: { maxSteps: number; concurrency: number; tools: Map<string, AnyTool> },
  emit: (step: ToolLoopStep) => void,
  signal: AbortSignal,
): Promise<ToolLoopResult> {
  const { sessionId } = options;
  const messages = new Map<number, Message>();
  const steps: ToolLoopStep[] = [];
  let body: SendMessageRequest = options.content === undefined ? {} : { content: options.content };
  for (let step = 1; ; step++) {
    signal.throwIfAborted();
    const reply = await send(client, sessionId, body, options, signal);
    for (const message of reply.messages) messages.set(message.index, message);
    const toolResults = await runPending(client, reply, options, config, signal);
    const done: ToolLoopStep = { step, reply, toolResults };
    steps.push(done);
    emit(done);
    await options.onStep?.(done);
    const finished = reply.pendingTools.length === 0;
    if (finished || step >= config.maxSteps) {
      const ordered = [...messages.values()].sort((a, b) => a.index - b.index);
      return {
        status: finished ? 'done' : 'max_steps',
        sessionId,
        messages: ordered,
        finalText: lastAssistantText(ordered),
        steps,
        stopReason: reply.stopReason,
        usage: sumUsage(steps),
      };
    }
    body = {};
  }
}

async function send(
  client: ToolLoopClient,
  sessionId: string,
  body: SendMessageRequest,
  options: RunToolLoopOptions,
  signal: AbortSignal,
): Promise<MessageReply> {
  if (!options.stream) return client.messages.send(sessionId, body, { signal });
  const stream = client.messages.stream(sessionId, body, { signal });
  if (options.onText) stream.on('text', options.onText);
  return stream.finalReply();
}

async function runPending(
  client: ToolLoopClient,
  reply: MessageReply,
  options: RunToolLoopOptions,
  config: { concurrency: number; tools: Map<string, AnyTool> },
  signal: AbortSignal,
): Promise<ToolRunResult[]> {
  if (reply.pendingTools.length === 0) return [];
  // One failing tool (its report failed for good) cancels its siblings before the loop rejects.
  const step = new AbortController();
  const linked = linkedSignal(signal, step.signal);
  const stepSignal = linked.signal;
  const available = [...config.tools.keys()];
  try {
    return await mapConcurrent(
      reply.pendingTools,
      config.concurrency,
      (pending) => {
        const tool = config.tools.get(pending.name);
        if (!tool)
          return reportUnknownTool(client, {
            sessionId: options.sessionId,
            pending,
            available,
            signal: stepSignal,
          });
        const { onHeartbeatError, onHeartbeat } = options;
        options.onToolStart?.(pending);
        return runTool(client, {
          sessionId: options.sessionId,
          pending,
          tool,
          heartbeatTimeoutMs: reply.heartbeatTimeoutMs,
          signal: stepSignal,
          random: options.random,
          maxBodyBytes: options.maxBodyBytes,
          onHeartbeatError: onHeartbeatError && ((error) => onHeartbeatError(error, pending)),
          onHeartbeat: onHeartbeat && ((beats) => onHeartbeat(beats, pending)),
        });
      },
      (error) => step.abort(error),
    );
  } finally {
    linked.unlink();
  }
}

function lastAssistantText(messages: readonly Message[]): string {
  const last = messages.filter((m) => m.role === 'assistant' && m.deletedAt === null).at(-1);
  if (!last) return '';
  return last.content.map((block) => (block.type === 'text' ? block.text : '')).join('');
}

function sumUsage(steps: readonly ToolLoopStep[]): ToolLoopResult['usage'] {
  const total = { inputTokens: 0, outputTokens: 0, totalTokens: 0 };
  for (const { reply } of steps) {
    if (!reply.usage) continue;
    total.inputTokens += reply.usage.inputTokens;
    total.outputTokens += reply.usage.outputTokens;
    total.totalTokens += reply.usage.totalTokens;
  }
  return total;
}
