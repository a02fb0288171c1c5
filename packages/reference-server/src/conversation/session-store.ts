import type { ContentBlock, Customizations, Message, Role, ToolResultBlock } from '@parley/protocol';
import { HttpError } from '../http-error.js';
import type { Clock } from '../time/clock.js';
import type { LazyAbortController } from '../utils/lazy-abort-controller.js';
import type { SessionInfo } from './extension-host.js';
import { MessageLog } from './message-log.js';
import { ToolCallStore } from './tool-call-store.js';

/** One session and everything that cascades with it. */
export interface Session {
  readonly id: string;
  readonly owner: string;
  /** The test scope it was created in (`x-parley-test-id`); undefined for the default scope. */
  readonly scope: string | undefined;
  /** Creation order within its scope, from 0 (a per-test cassette finds its recording by it). */
  readonly scopeSeq: number;
  readonly createdAt: number;
  /** Creation order, to keep sessions of the same millisecond ordered. */
  readonly seq: number;
  readonly customizations: Customizations;
  /** Resolved agent (the default agent for Minimal sessions); undefined for Full sessions. */
  readonly agentId: string | undefined;
  readonly modelId: string | undefined;
  /**
   * Every message, retracted ones included, in index order. Reads make fresh Message objects, so
   * a response may keep what it read.
   */
  readonly messages: MessageLog;
  /** The next index to hand out: indexes are never reused. */
  nextIndex: number;
  readonly toolCalls: ToolCallStore;
  /** Results of server-run tools waiting to be sent to the model, by tool_use id. */
  readonly serverToolResults: Map<string, ToolResultBlock>;
  /** The running reply's controller; set while the session is busy. */
  reply: LazyAbortController | undefined;
  /** What is known of the running reply (set together with `reply`). */
  replyInfo: RunningReplyInfo | undefined;
  /**
   * Indexes of the `system` messages retrieval prefetch stored (each just before the user message
   * it was retrieved for), so a rewind of that user message retracts exactly these.
   */
  readonly prefetched: Set<number>;
}

/** The running reply, as a `409 reply_in_progress` describes it. */
export interface RunningReplyInfo {
  /** Server-clock time the reply started, Unix ms. */
  startedAt: number;
  /** Whether it is a streamed send (`/stream`) rather than a buffered one. */
  streamed: boolean;
}

export interface SessionStoreOptions {
  clock: Clock;
  heartbeatTimeoutMs: number;
  toolCallTimeoutMs: number;
  /** Sessions kept at most, across users and scopes; a create beyond is `503 session_limit_reached`. */
  maxSessions?: number | undefined;
}

/**
 * A session as the store keeps it. Its message log, tool calls, server tool results and prefetch
 * indexes are made when first used: a session that is only created costs one object.
 */
class StoredSession implements Session {
  nextIndex = 0;
  reply: LazyAbortController | undefined = undefined;
  replyInfo: RunningReplyInfo | undefined = undefined;
  #messages: MessageLog | undefined = undefined;
  #toolCalls: ToolCallStore | undefined = undefined;
  #serverToolResults: Map<string, ToolResultBlock> | undefined = undefined;
  #prefetched: Set<number> | undefined = undefined;

  constructor(
    readonly id: string,
    readonly owner: string,
    readonly scope: string | undefined,
    readonly scopeSeq: number,
    readonly createdAt: number,
    readonly seq: number,
    readonly customizations: Customizations,
    readonly agentId: string | undefined,
    readonly modelId: string | undefined,
    private readonly options: SessionStoreOptions,
  ) {}

  get messages(): MessageLog {
    this.#messages ??= new MessageLog();
    return this.#messages;
  }

  get toolCalls(): ToolCallStore {
    const { clock, heartbeatTimeoutMs, toolCallTimeoutMs } = this.options;
    this.#toolCalls ??= new ToolCallStore(clock, heartbeatTimeoutMs, toolCallTimeoutMs);
    return this.#toolCalls;
  }

  get serverToolResults(): Map<string, ToolResultBlock> {
    this.#serverToolResults ??= new Map();
    return this.#serverToolResults;
  }

  get prefetched(): Set<number> {
    this.#prefetched ??= new Set();
    return this.#prefetched;
  }
}

/** The in-memory sessions of every user. */
export class SessionStore {
  readonly #sessions = new Map<string, Session>();
  /** Sessions created so far per test scope (their next `scopeSeq`). */
  readonly #scopeSeqs = new Map<string, number>();
  #seq = 0;

  constructor(private readonly options: SessionStoreOptions) {}

  /**
   * A new session of `owner` in `scope` (undefined: the default scope).
   *
   * @throws HttpError `session_limit_reached` when the store holds `maxSessions` already.
   */
  create(
    owner: string,
    customizations: Customizations,
    agentId: string | undefined,
    modelId: string | undefined,
    scope?: string,
  ) {
    const { maxSessions } = this.options;
    if (maxSessions !== undefined && this.#sessions.size >= maxSessions) {
      throw new HttpError(
        'session_limit_reached',
        `The server holds ${maxSessions} sessions, its limit (--max-sessions): delete sessions or reset`,
        { details: { maxSessions } },
      );
    }
    const id = `sess_${crypto.randomUUID().replaceAll('-', '')}`;
    let scopeSeq = 0;
    if (scope !== undefined) {
      scopeSeq = this.#scopeSeqs.get(scope) ?? 0;
      this.#scopeSeqs.set(scope, scopeSeq + 1);
    }
    const session = new StoredSession(
      id,
      owner,
      scope,
      scopeSeq,
      this.options.clock.now(),
      this.#seq++,
      customizations,
      agentId,
      modelId,
      this.options,
    );
    this.#sessions.set(id, session);
    return session;
  }

  /**
   * The caller's session, or `404 session_not_found`: also for another user's session, and for one
   * of another test scope (isolation is this one check).
   */
  require(owner: string, sessionId: string, scope?: string): Session {
    const session = this.#sessions.get(sessionId);
    if (session === undefined || session.owner !== owner || session.scope !== scope) {
      throw new HttpError('session_not_found', `Session ${sessionId} was not found`);
    }
    return session;
  }

  /** How many sessions were created since the server started (the next one's creation order). */
  get created(): number {
    return this.#seq;
  }

  /** A session by id, whoever owns it (for the server's own bookkeeping, never for a request). */
  get(sessionId: string): Session | undefined {
    return this.#sessions.get(sessionId);
  }

  /** Whether the session still exists (a reply checks this after every await). */
  isLive(session: Session): boolean {
    return this.#sessions.get(session.id) === session;
  }

  /** The caller's sessions in `scope`, newest first. */
  list(owner: string, scope?: string): Session[] {
    return [...this.#sessions.values()]
      .filter((s) => s.owner === owner && s.scope === scope)
      .sort((a, b) => b.createdAt - a.createdAt || b.seq - a.seq);
  }

  /** Hard delete; aborts the running reply. */
  delete(session: Session): void {
    this.#sessions.delete(session.id);
    session.reply?.abort(new HttpError('session_not_found', `Session ${session.id} was deleted`));
  }

  /** Aborts every running reply with `reason`. */
  abortReplies(reason: unknown): void {
    for (const session of this.#sessions.values()) session.reply?.abort(reason);
  }

  /** Deletes every session. */
  clear(): void {
    for (const session of [...this.#sessions.values()]) this.delete(session);
    this.#scopeSeqs.clear();
  }

  /** Deletes the sessions of one test scope (of one user only, with `owner`), aborting their replies. */
  clearScope(scope: string, owner?: string): void {
    for (const session of [...this.#sessions.values()]) {
      if (session.scope === scope && (owner === undefined || session.owner === owner)) this.delete(session);
    }
    if (owner === undefined) this.#scopeSeqs.delete(scope);
  }

  /** Whether sessions were made in test scope `scope` since it was last cleared. */
  hasScope(scope: string): boolean {
    return this.#scopeSeqs.has(scope);
  }

  get size(): number {
    return this.#sessions.size;
  }

  all(): IterableIterator<Session> {
    return this.#sessions.values();
  }
}

/** Appends a message with the next index. */
export function appendMessage(session: Session, role: Role, content: ContentBlock[], now: number): Message {
  const message: Message = { role, index: session.nextIndex++, content, deletedAt: null, createdAt: now };
  session.messages.push(message);
  return message;
}

/** What the extension host is told about a session. */
export function sessionInfo(session: Session): SessionInfo {
  return {
    sessionId: session.id,
    userName: session.owner,
    customizations: session.customizations,
    agentId: session.agentId,
    modelId: session.modelId,
  };
}
