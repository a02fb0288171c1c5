import type { RecoverOptions } from '../../recovery/recover-options.js';
import type { ContextLike } from '../../tracing/tracer-like.js';
import type {
  Message,
  MessageReply,
  PendingTool,
  SendMessageRequest,
  ToolCall,
  UserContentBlock,
} from '../../wire/index.js';
import type { AnyTool, ToolMiddleware } from '../define/define-tool.js';
import type { ToolObject } from '../define/tool-schema.js';
import type { ToolInputRepairer } from '../run/input-repair.js';
import type { ToolApprover } from '../run/tool-approval.js';
import type { ToolClient, ToolRequestOptions, ToolTransport } from '../run/tool-transport.js';
import type { DeclaredTools } from './session-tools.js';
import type { StopCondition } from './stop-conditions.js';
import type { ToolLoopStep } from './tool-loop-run.js';
import type { ToolLoopPrices } from './usage-budget.js';

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
    send(sessionId: string, body: SendMessageRequest, options?: ToolLoopSendOptions): Promise<MessageReply>;
    stream(sessionId: string, body: SendMessageRequest, options?: ToolLoopSendOptions): ToolLoopStream;
    /** Reads the live conversation: needed by `reattach: true`. */
    export?(sessionId: string, params?: object, options?: ToolRequestOptions): PromiseLike<Message[]>;
  };
  tools: ToolTransport & {
    /** Reads one tool call as the server sees it now: needed by `reattach: true`. */
    get?(sessionId: string, requestId: string, options?: ToolRequestOptions): PromiseLike<ToolCall>;
  };
}

/** What the loop passes to `messages.send` / `stream`: `recover` only when the loop has it. */
export interface ToolLoopSendOptions extends ToolRequestOptions {
  recover?: RecoverOptions;
}

export interface RunToolLoopOptions {
  sessionId: string;
  /** The user's turn. Leave it out to resume a conversation whose tool calls are settled. */
  content?: string | UserContentBlock[] | undefined;
  /**
   * Re-attach to the session's open turn, as a process that takes over from one that died: read
   * the session, claim and run the calls no live worker holds (their lease lapsed, or no one
   * picked them up), wait for those another worker holds, leave the settled ones alone, resume
   * once every call is settled, and go on as a normal loop. The user's message is never sent
   * again. The result says what was found in `reattached`. With nothing open the run resolves at
   * once with `status: 'done'`; when another process holds the turn (every open call was its, or
   * it resumed first) with `status: 'held_elsewhere'`. Not with `content` (a `TypeError`). On a
   * server with the lease extension each call runs in one process however many re-attach at once;
   * see docs/tool-workers.md, "After a crash", for what holds without it.
   */
  reattach?: boolean | undefined;
  /**
   * @deprecated Renamed `reattach` ("resume" is the name of sending `{}`). Kept for one version;
   * `resume: true` still re-attaches.
   */
  resume?: boolean | undefined;
  /**
   * The server's heartbeat timeout (its lease), for the calls `reattach` claims: a reply carries
   * it, a session read does not. Default: unknown, so those calls beat every second and assume a
   * 3 s lease (what such beats defend), until a server with the lease extension names it.
   */
  heartbeatTimeoutMs?: number | undefined;
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
  /**
   * Assistant text as it streams (only with `stream: true`): `delta` is the new text, `snapshot`
   * the text of its block so far (a new block starts when they are equal).
   */
  onText?: ((delta: string, snapshot: string) => void) | undefined;
  /**
   * After each step: `step` is `{ step, reply, toolResults }` (the reply and one result per pending
   * tool, all settled). Called before the loop resumes, which waits for it.
   */
  onStep?: ((step: ToolLoopStep) => void | Promise<void>) | undefined;
  /**
   * When a tool call starts, before its handler runs: `pending` is the entry of
   * `reply.pendingTools`, as the reply had it (`state: 'PENDING'`, or `'PROCESSING'` on a server
   * with the lease extension, whose send picked the call up for this run).
   */
  onToolStart?: ((pending: PendingTool) => void) | undefined;
  /**
   * After each successful heartbeat of a call: `beats` counts the successful beats so far (1 for the
   * first), `call` is the call as the server now reads it (`state: 'PROCESSING'`).
   */
  onHeartbeat?: ((beats: number, call: PendingTool) => void) | undefined;
  /**
   * A heartbeat failed without losing the call (a network error, a timeout, a 5xx or 429; the timer
   * keeps beating; a call waiting its turn is beaten and reported too), for logging: `error` is the SDK error, `call` the call as the server last read
   * it (as the reply had it until a beat succeeded, then `PROCESSING`). A 409 or 404 is no error here: the
   * call is lost, and its result says so (`LOST`).
   */
  onHeartbeatError?: ((error: unknown, call: PendingTool) => void) | undefined;
  /**
   * The server's request body limit: a tool output too large to send is reported to the model as
   * an ERROR, and the loop goes on (see `runTool`). Default 1 MiB.
   */
  maxBodyBytes?: number | undefined;
  /** Source of heartbeat jitter, `[0, 1)`. */
  random?: (() => number) | undefined;
  /**
   * The parent of the run's span, when the client has a `tracer` (its spans: the run, each step,
   * each request and tool run). Default: the active context.
   */
  traceContext?: ContextLike | undefined;
  /**
   * Asked before each call of a tool defined with `needsApproval`, about the input that runs, while
   * the call's heartbeat keeps its lease: answer `{ approved: true, input?, by? }` to run it (with an
   * edited input when given), `{ approved: false, reason, by? }` to send the model an ERROR with the
   * reason (the loop goes on), or `{ respond: output, by? }` to answer for the tool without running it. With no answer shortly before
   * the call's deadline, the wait ends (the request's `signal` aborts with a
   * `ToolApprovalTimeoutError`) and the call is reported as an ERROR. Each step records the
   * decisions in `approvals`. A loop whose tools need approval fails at its start without it.
   */
  approve?: ToolApprover | undefined;
  /**
   * Stop after a step (its calls all settled) when a condition holds: `stepCountIs(n)`,
   * `hasToolCall(name)`, your own `(step, steps) => boolean`, or a list (any one stops). The run
   * resolves with `status: 'stopped'` and `stopped: { by, reason, step }`. A completed call of a
   * tool defined with `endsLoop: true` stops it too.
   */
  stopWhen?: StopCondition | readonly StopCondition[] | undefined;
  /**
   * The time limit of each handler in ms, for tools that set no `timeoutMs` of their own: at the
   * limit its `ctx.signal` aborts with a `ToolTimeoutError` and the model gets an ERROR
   * (`Tool "x" ran past its 800 ms time limit and was stopped`). Default: none.
   */
  toolTimeoutMs?: number | undefined;
  /**
   * Recover a reply that fails after its request was sent (a model error, a cut or dropped
   * stream, a timeout, a 5xx): read the session, use the completed reply or resume, with backoff.
   * Each step records its attempts in `step.recovery`. `true` takes the defaults.
   */
  recover?: true | RecoverOptions | undefined;
  /**
   * Functions `(call, next) => output` around every tool run, outside each tool's own
   * `middleware` (the first is the outermost); approval and the time limit run inside them, and a
   * `workerHandler` tool's middleware runs on this thread. A middleware that throws sends the model
   * an ERROR with its message. See `ToolMiddleware`.
   */
  middleware?: readonly ToolMiddleware<unknown, ToolObject>[] | undefined;
  /**
   * Asked when a call's input fails its tool's schema: return a fixed input and the tool runs with
   * it (the step records it in `repairs`), or nothing and the model gets the schema's error.
   */
  repairToolInput?: ToolInputRepairer | undefined;
  /**
   * Prices per million tokens, by model: `{ 'model-id': { inputPerMTok, outputPerMTok } }`. Puts
   * `cost` on each step, on the result and on the spans (`costAtLeast` stops on it).
   */
  prices?: ToolLoopPrices | undefined;
  /**
   * The key of `prices` this loop's replies are priced at (it picks a price-table entry; it does
   * not choose the model that answers). Default: the only entry.
   */
  priceModel?: string | undefined;
  /** @deprecated Renamed `priceModel` (it picks an entry of `prices`, not a model). Kept for one version. */
  model?: string | undefined;
}
