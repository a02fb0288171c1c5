import type { Customizations, Message, StopReason } from '@parley/protocol';
import type { Clock } from '../time/clock.js';
import type { StreamPace } from './stream-pace-options.js';

/** A tool as the model sees it: client tools stop the reply, server tools run inside it. */
export interface ModelTool {
  name: string;
  description: string;
  /** JSON Schema of the input object. */
  inputSchema: Record<string, unknown>;
  kind: 'client' | 'server';
}

/** Everything a model gets for one assistant message. */
export interface ModelRequest {
  sessionId: string;
  /** The live conversation (retracted messages left out), in index order, ending with a user message. */
  messages: readonly Message[];
  /** The system prompt of the resolved agent, if any. */
  system: string | undefined;
  tools: readonly ModelTool[];
  /** The session's customizations as created (`{}` for a body-less session). */
  customizations: Customizations;
  /** The agent the session resolved to (the default agent for Minimal sessions), or undefined for Full. */
  agentId: string | undefined;
  /** The foundation model of a Full session. */
  modelId: string | undefined;
  parameters: { maxTokens?: number; temperature?: number };
  /** How many assistant messages the model produced in this session before this one (0 for the first). */
  turn: number;
  /** Aborted when the reply is interrupted; stop producing events. */
  signal: AbortSignal;
  clock: Clock;
  /**
   * The session's pace, else the server's (`pace` option, `server.setPace`): the stand-in and
   * scripted models stream at it (`pacedEvents` paces a model of your own). Undefined: at once.
   */
  pace?: StreamPace | undefined;
}

/** Whether and why a request was aborted, read without making an `AbortSignal`. */
export interface AbortState {
  readonly aborted: boolean;
  readonly reason: unknown;
}

const ABORT_STATE = Symbol('parley.abortState');

/**
 * Lends `request` the reply's abort state, so the built-in models check it without touching
 * `request.signal` (which the server then makes only for a model that asks for it).
 */
export function lendAbortState<T extends ModelRequest>(request: T, state: AbortState): T {
  (request as T & { [ABORT_STATE]?: AbortState })[ABORT_STATE] = state;
  return request;
}

/** The abort state the server lent `request`, else its `signal` (which has the same two fields). */
export function abortStateOf(request: ModelRequest): AbortState {
  return (request as ModelRequest & { [ABORT_STATE]?: AbortState })[ABORT_STATE] ?? request.signal;
}

/**
 * What a model yields for one assistant message, in Bedrock ConverseStream shapes. The server assigns
 * the message index, so `messageStart` carries only the role. Order: messageStart, each block
 * (contentBlockStart for tool_use, deltas, contentBlockStop), messageStop, optionally metadata.
 */
export type ModelEvent =
  | { messageStart: { role: 'assistant' } }
  | {
      contentBlockStart: {
        contentBlockIndex: number;
        start: { toolUse: { toolUseId: string; name: string } };
      };
    }
  | {
      contentBlockDelta: {
        contentBlockIndex: number;
        delta: { text: string } | { toolUse: { input: string } };
      };
    }
  | { contentBlockStop: { contentBlockIndex: number } }
  | { messageStop: { stopReason: StopReason } }
  | {
      metadata: {
        usage: { inputTokens: number; outputTokens: number; totalTokens: number };
        metrics?: { latencyMs: number };
      };
    };

/**
 * A model: one call produces one assistant message as an async iterable of events. Throw
 * {@link ModelError} (or anything) to fail the reply; the server turns it into `502 model_error`
 * (buffered) or an exception event (streamed).
 */
export type Model = (request: ModelRequest) => AsyncIterable<ModelEvent>;

/** A model failure with an optional error code from the protocol's table (default `model_error`). */
export class ModelError extends Error {
  override name = 'ModelError' as const;
  readonly code: string;
  constructor(message: string, options?: { code?: string; cause?: unknown }) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.code = options?.code ?? 'model_error';
  }
}
