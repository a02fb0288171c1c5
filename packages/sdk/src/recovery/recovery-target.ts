import type { WithResponse } from '../core/api-promise.js';
import type { HttpClient, OpenResponse, RequestOptions } from '../core/http-client.js';
import type { MessageReply, SendMessageRequest } from '../wire/index.js';
import type { RecoverOptions } from './recover-options.js';

/** A send body: the user's turn, or `{}` to resume. */
export type SendBody = SendMessageRequest;

/** What `client.messages` hands the recovery module: its transport and the call as made. */
export interface RecoveryTarget {
  http: HttpClient;
  sessionId: string;
  body: SendBody;
  /** The call's request options (signal, headers, timeout). */
  options: RequestOptions;
  recover: RecoverOptions;
}

/** The buffered call: sends `body` as the resource does. */
export type SendOnce = (body: SendBody) => Promise<WithResponse<MessageReply>>;

/** The streamed call: opens a stream for `body` with the stream's own signal. */
export type OpenOnce = (body: SendBody, signal: AbortSignal) => Promise<OpenResponse>;
