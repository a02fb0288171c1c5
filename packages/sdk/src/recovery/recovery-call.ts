import type { APIPromise } from '../core/api-promise.js';
import type { OpenResponse, RequestOptions } from '../core/http-client.js';
import type { Message, MessageReply, SendMessageRequest, ToolCall } from '../wire/index.js';
import type { RecoverOptions } from './recover-options.js';

/**
 * What the recovery sends and reads with: `client.messages` (its `send` without `recover`, and
 * `export`), `client.tools` (its `get`), and the retries' backoff. Handed over by the client's
 * `messages` resource, which owns them.
 *
 * @internal
 */
export interface RecoveryClient {
  messages: {
    send(sessionId: string, body: SendMessageRequest, options?: RequestOptions): APIPromise<MessageReply>;
    export(sessionId: string, params: object, options?: RequestOptions): APIPromise<Message[]>;
  };
  tools: { get(sessionId: string, requestId: string, options?: RequestOptions): APIPromise<ToolCall> };
  /** The retries' backoff (`defaults.retry`): the waits when `recover.backoff` is not given. */
  backoff(attempt: number): number;
}

/**
 * One call of `client.messages.send` / `stream` with the `recover` option, as it was made.
 *
 * @internal
 */
export interface RecoveryCall {
  sessionId: string;
  /** The user's turn, or `{}` to resume. */
  body: SendMessageRequest;
  /** The call's request options (signal, headers, timeout), without `recover`. */
  options: RequestOptions;
  recover: true | RecoverOptions;
}

/**
 * Opens a streamed send of `body` on the stream's signal (what `client.messages.stream` sends).
 *
 * @internal
 */
export type OpenStream = (body: SendMessageRequest, signal: AbortSignal) => Promise<OpenResponse>;
