import type {
  HeartbeatLease,
  HeartbeatRequest,
  JsonObject,
  PendingTool,
  ToolCall,
  ToolCallState,
} from '@parley/protocol';
import type { ToolCall as WireToolCall } from '@parley/protocol/wire';
import { stringify as stableStringify } from 'safe-stable-stringify';
import { HttpError } from '../http-error.js';
import type { Clock } from '../time/clock.js';

/**
 * A client tool call as stored: the call as `GET /v1/tools/request/...` shows it, and the response
 * submitted for it. `state` is the stored state; read it through {@link ToolCallStore.stateOf}.
 */
export interface ToolCallRecord extends WireToolCall {
  /** The submitted response, `state` included. */
  response?: JsonObject;
  /** Lease extension: the token the call is leased to (never shown on the wire). */
  leaseToken?: string;
  /** Lease extension: when the current lease started or was last renewed (server clock). */
  leasedAt?: number;
  /** Lease extension: the token whose beats `attempt` counts (a new one beating counts one more). */
  attemptToken?: string;
}

/** The `attemptToken` of beats without a lease token (a real token has 16 characters or more). */
const ANONYMOUS = '';

const TERMINAL: ReadonlySet<ToolCallState> = new Set(['COMPLETE', 'ERROR', 'ABANDONED']);

export function isTerminal(state: ToolCallState): boolean {
  return TERMINAL.has(state);
}

/**
 * The tool calls of one session and their state machine (docs/protocol.md, "Tool calls"). Time is
 * read from the clock on every access: a call past its deadline becomes ABANDONED the moment it is
 * looked at, and a PROCESSING call whose lease went stale reads as PENDING.
 */
export class ToolCallStore {
  readonly #calls = new Map<string, ToolCallRecord>();

  constructor(
    private readonly clock: Clock,
    private readonly heartbeatTimeoutMs: number,
    private readonly toolCallTimeoutMs: number,
  ) {}

  has(requestId: string): boolean {
    return this.#calls.has(requestId);
  }

  /**
   * Creates a PENDING call; its deadline is `createdAt + toolCallTimeoutMs`. With `leaseToken` (the
   * lease extension: the send that made the reply carried one) the send is the call's pickup: the
   * call is PROCESSING from its creation, attempt 1, leased to that token as if it had beaten then.
   * The sender's first beat renews (no new attempt); if it never beats, the lease lapses like any
   * other and the call reads PENDING again.
   */
  create(
    sessionId: string,
    requestId: string,
    name: string,
    input: JsonObject,
    leaseToken?: string,
  ): ToolCallRecord {
    const createdAt = this.clock.now();
    const record: ToolCallRecord = {
      sessionId,
      requestId,
      name,
      input,
      state: 'PENDING',
      createdAt,
      deadlineAt: createdAt + this.toolCallTimeoutMs,
      lastHeartbeatAt: null,
      settledAt: null,
      attempt: 0,
    };
    if (leaseToken !== undefined) {
      record.state = 'PROCESSING';
      record.lastHeartbeatAt = createdAt;
      record.attempt = 1;
      record.attemptToken = leaseToken;
      record.leaseToken = leaseToken;
      record.leasedAt = createdAt;
    }
    this.#calls.set(requestId, record);
    return record;
  }

  /** The call, with its deadline applied; undefined if unknown. */
  get(requestId: string): ToolCallRecord | undefined {
    const record = this.#calls.get(requestId);
    if (record !== undefined) this.#applyDeadline(record);
    return record;
  }

  /** The call or `404 tool_call_not_found`. */
  require(requestId: string): ToolCallRecord {
    const record = this.get(requestId);
    if (record === undefined) {
      throw new HttpError('tool_call_not_found', `Tool call ${requestId} was not found in this session`);
    }
    return record;
  }

  /** The state as the protocol reports it now (deadline applied, stale lease read as PENDING). */
  stateOf(record: ToolCallRecord): ToolCallState {
    this.#applyDeadline(record);
    if (
      record.state === 'PROCESSING' &&
      record.lastHeartbeatAt !== null &&
      this.clock.now() - record.lastHeartbeatAt >= this.heartbeatTimeoutMs
    ) {
      return 'PENDING';
    }
    return record.state;
  }

  /** The wire view of `GET /v1/tools/request/:sessionId/:requestId`. */
  view(record: ToolCallRecord): ToolCall {
    const state = this.stateOf(record);
    const call: ToolCall = {
      sessionId: record.sessionId,
      requestId: record.requestId,
      name: record.name,
      input: record.input,
      state,
      createdAt: record.createdAt,
      deadlineAt: record.deadlineAt,
      lastHeartbeatAt: record.lastHeartbeatAt,
      settledAt: record.settledAt,
      attempt: record.attempt ?? 0,
      leaseExpiresAt: this.#leaseHolder(record) === undefined ? null : this.#leaseExpiresAt(record),
    };
    if (record.error !== undefined) call.error = record.error;
    return call;
  }

  /** The `pendingTools` entry of a reply. */
  pendingView(record: ToolCallRecord): PendingTool {
    return {
      requestId: record.requestId,
      name: record.name,
      input: record.input,
      state: this.stateOf(record),
      createdAt: record.createdAt,
      deadlineAt: record.deadlineAt,
    };
  }

  /**
   * A heartbeat: PROCESSING renews the lease, ERROR settles the call. With `leaseToken` (the lease
   * extension) a PROCESSING beat claims the call when no other token holds a live lease on it (a
   * new holder counts one more attempt) and answers the lease; a foreign token on a live lease is
   * `409 tool_call_leased`. Without a token the beat is the protocol's plain one.
   */
  heartbeat(requestId: string, body: HeartbeatRequest, leaseToken?: string): HeartbeatLease | undefined {
    const record = this.require(requestId);
    const state = this.stateOf(record);
    const now = this.clock.now();
    if (body.state === 'PROCESSING') {
      if (isTerminal(state)) throw terminalError(record);
      if (leaseToken !== undefined) this.#checkLease(record, leaseToken);
      record.state = 'PROCESSING';
      record.lastHeartbeatAt = now;
      // Each worker that beats the call is one attempt: the first beat of a token counts (beats
      // without a token count as one worker's).
      const beatenBy = leaseToken ?? ANONYMOUS;
      if (record.attemptToken !== beatenBy) {
        record.attemptToken = beatenBy;
        record.attempt = (record.attempt ?? 0) + 1;
      }
      if (leaseToken === undefined) return undefined;
      record.leaseToken = leaseToken;
      record.leasedAt = now;
      return {
        leaseToken,
        attempt: record.attempt ?? 1,
        leaseExpiresAt: this.#leaseExpiresAt(record),
        heartbeatTimeoutMs: this.heartbeatTimeoutMs,
        deadlineAt: record.deadlineAt,
        now,
      };
    }
    if (state === 'ERROR' && record.error === body.error) return undefined; // identical repeat
    if (isTerminal(state)) throw terminalError(record);
    if (leaseToken !== undefined) this.#checkLease(record, leaseToken);
    record.state = 'ERROR';
    record.error = body.error;
    record.settledAt = now;
    return undefined;
  }

  /**
   * A response: COMPLETE settles the call; an identical repeat changes nothing. A `leaseToken` that
   * is not the live lease's holder is `409 tool_call_leased`.
   */
  respond(requestId: string, response: JsonObject, leaseToken?: string): void {
    const record = this.require(requestId);
    const state = this.stateOf(record);
    if (state === 'COMPLETE' && stableStringify(record.response) === stableStringify(response)) return;
    if (isTerminal(state)) throw terminalError(record);
    if (leaseToken !== undefined) this.#checkLease(record, leaseToken);
    record.state = 'COMPLETE';
    record.response = response;
    record.settledAt = this.clock.now();
  }

  /** Abandons a call that is not settled (rewind). Returns whether it changed. */
  abandon(requestId: string, reason: string): boolean {
    const record = this.get(requestId);
    if (record === undefined || isTerminal(record.state)) return false;
    record.state = 'ABANDONED';
    record.error = `Tool call abandoned: ${reason}`;
    record.settledAt = this.clock.now();
    return true;
  }

  /** `409 tool_call_leased` when a token other than `leaseToken` holds a live lease on the call. */
  #checkLease(record: ToolCallRecord, leaseToken: string): void {
    const holder = this.#leaseHolder(record);
    if (holder === undefined || holder === leaseToken) return;
    throw new HttpError(
      'tool_call_leased',
      `Tool call ${record.requestId} is leased to another worker (attempt ${record.attempt ?? 0}) until ${new Date(this.#leaseExpiresAt(record)).toISOString()}`,
      {
        details: {
          requestId: record.requestId,
          attempt: record.attempt ?? 0,
          leaseExpiresAt: this.#leaseExpiresAt(record),
        },
      },
    );
  }

  /** The token of the live lease on the call, if any: a lease lapses `heartbeatTimeoutMs` after its last renewal. */
  #leaseHolder(record: ToolCallRecord): string | undefined {
    if (record.leaseToken === undefined || record.leasedAt === undefined || isTerminal(record.state)) {
      return undefined;
    }
    return this.clock.now() < this.#leaseExpiresAt(record) ? record.leaseToken : undefined;
  }

  #leaseExpiresAt(record: ToolCallRecord): number {
    return (record.leasedAt ?? record.createdAt) + this.heartbeatTimeoutMs;
  }

  #applyDeadline(record: ToolCallRecord): void {
    if (!isTerminal(record.state) && this.clock.now() >= record.deadlineAt) {
      record.state = 'ABANDONED';
      record.error = `Tool call abandoned: no result within ${this.toolCallTimeoutMs} ms of its creation`;
      record.settledAt = record.deadlineAt;
    }
  }
}

function terminalError(record: ToolCallRecord): HttpError {
  return new HttpError('tool_call_terminal', `Tool call ${record.requestId} is already ${record.state}`, {
    details: { requestId: record.requestId, state: record.state },
  });
}
