import type { HeartbeatRequest, JsonObject, PendingTool, ToolCall, ToolCallState } from '@parley/protocol';
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
}

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

  /** Creates a PENDING call; its deadline is `createdAt + toolCallTimeoutMs`. */
  create(sessionId: string, requestId: string, name: string, input: JsonObject): ToolCallRecord {
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
    };
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

  /** A heartbeat: PROCESSING renews the lease, ERROR settles the call. */
  heartbeat(requestId: string, body: HeartbeatRequest): void {
    const record = this.require(requestId);
    const state = this.stateOf(record);
    const now = this.clock.now();
    if (body.state === 'PROCESSING') {
      if (isTerminal(state)) throw terminalError(record);
      record.state = 'PROCESSING';
      record.lastHeartbeatAt = now;
      return;
    }
    if (state === 'ERROR' && record.error === body.error) return; // identical repeat
    if (isTerminal(state)) throw terminalError(record);
    record.state = 'ERROR';
    record.error = body.error;
    record.settledAt = now;
  }

  /** A response: COMPLETE settles the call; an identical repeat changes nothing. */
  respond(requestId: string, response: JsonObject): void {
    const record = this.require(requestId);
    const state = this.stateOf(record);
    if (state === 'COMPLETE' && stableStringify(record.response) === stableStringify(response)) return;
    if (isTerminal(state)) throw terminalError(record);
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
