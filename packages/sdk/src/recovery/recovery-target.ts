import type { APIPromise } from '../core/api-promise.js';
import type { OpenResponse, RequestOptions } from '../core/http-client.js';
import type { Message, MessageReply, SendMessageRequest, ToolCall } from '../wire/index.js';
import type { RecoverOptions } from './recover-options.js';

/**
 * What `client.messages.send` / `stream` hand the recovery: the call as made, and the requests it
 * makes, through the client's own resources (so that they go through the same transport, with the
 * same options, as the call).
 *
 * @internal
 */
export interface RecoveryTarget {
  sessionId: string;
  /** The call's body: the user's turn, or `{}` to resume. */
  body: SendMessageRequest;
  /** The call's request options (signal, headers, timeout; `recover` is not passed on). */
  options: RequestOptions & { recover?: unknown };
  recover: true | RecoverOptions;
  /** `client.messages`: its `send` (without `recover`) and `export`. */
  messages: {
    send(sessionId: string, body: SendMessageRequest, options?: RequestOptions): APIPromise<MessageReply>;
    export(sessionId: string, params: object, options?: RequestOptions): APIPromise<Message[]>;
  };
  /** `client.tools`: its `get`. */
  tools: { get(sessionId: string, requestId: string, options?: RequestOptions): APIPromise<ToolCall> };
  /** The retries' backoff (`defaults.retry`), the waits when `recover.backoff` is not given. */
  backoff(attempt: number): number;
}

/**
 * Opens a streamed send of `body` on the stream's signal (what `client.messages.stream` sends).
 *
 * @internal
 */
export type OpenStream = (body: SendMessageRequest, signal: AbortSignal) => Promise<OpenResponse>;

/**
 * `client.messages` and `client.tools` as the recovery uses them, and the retries' backoff.
 *
 * @internal
 */
export type RecoveryClient = Pick<RecoveryTarget, 'messages' | 'tools' | 'backoff'>;

/** The {@link RecoveryTarget} of one call. */
export function recoveryTarget(
  { messages, tools, backoff }: RecoveryClient,
  sessionId: string,
  body: SendMessageRequest,
  options: RecoveryTarget['options'],
  recover: true | RecoverOptions,
): RecoveryTarget {
  return { sessionId, body, options, recover, messages, tools, backoff };
}

/** The call's request options without `recover`: the requests a recovery makes are plain ones. */
export function plainOptions(target: RecoveryTarget): RequestOptions {
  const { recover: _recover, ...options } = target.options;
  return options;
}
