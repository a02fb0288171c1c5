/**
 * One way a body broke the protocol, as the checking proxy finds it: which body, the path in it,
 * what the protocol expects there and what came. It never changes what passes through.
 */
export interface ProtocolViolation {
  /** The request body (sent by the client) or the response body (sent by the upstream). */
  readonly in: 'request' | 'response';
  /**
   * Where in the body, e.g. `content[0].text` or `events[3].contentBlockDelta.delta.text`
   * (a streamed reply's events are elements of its body's `events`); `""` for the body itself.
   */
  readonly path: string;
  /** What the protocol expects there, e.g. `string`, `one of the known event kinds`. */
  readonly expected: string;
  /** What came, e.g. `number 42`, `nothing`, `text "<html>..."`. */
  readonly got: string;
}
