import type { ConversationScope } from '../conversation/conversation-scope.js';
import type { EventPacer } from './event-pacer.js';
import type { BodyObserver } from './json-body.js';
import type { ProtocolViolation } from './protocol-violation.js';
import type { StreamObserver } from './stream-writer.js';

/**
 * What a wrapper around the core (the testing toolkit) may hand one request, as the Hono bindings
 * (`c.env`). Every member is optional: the core runs the same with none of them, e.g. when
 * `app.fetch(request)` is called directly.
 */
export interface RequestHooks {
  /**
   * The test scope the request belongs to (`x-parley-test-id`, resolved once at the edge): its
   * sessions are the only ones the request sees, and its model answers them. Absent: the default.
   */
  scope?: ConversationScope | undefined;
  /** The request id to stamp on the response; the core makes one when absent. */
  requestId?: string;
  /** Told the name of the user the request authenticated as. */
  onUser?: (user: string) => void;
  /** Told the body text a route read (see {@link BodyObserver}); a body no route reads is never read. */
  onBody?: BodyObserver;
  /**
   * Told the JSON text of a buffered response the core made, and the value it was serialized from
   * (responses with no body, and those a middleware builds itself, are not told). `truncated`: the
   * text is only the body's start (the checking proxy's answer too long to hold).
   */
  onResponseBody?: (text: string, value: unknown, truncated?: boolean) => void;
  /** Told that the response body is a stream of events written as the reply runs. */
  onStreamed?: () => void;
  /** Paces the events of a streamed reply (the toolkit's stream faults). */
  pacer?: EventPacer | undefined;
  /** Told the events of a streamed reply as they are written, and how the body ended. */
  streamObserver?: StreamObserver;
  /** Told each protocol violation the checking proxy finds in the request or its answer (never by the core). */
  onViolation?: (violation: ProtocolViolation) => void;
}
