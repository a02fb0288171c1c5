import type { Shape } from '../internal/shape.js';

/**
 * A standard `fetch`, or any function that answers a `Request` (a server's in-process `fetch`
 * handler, msw, a test double). The SDK always calls it with a `Request`.
 */
export type FetchLike = (input: Request, init?: RequestInit) => Promise<Response>;

/**
 * One call of the protocol.
 *
 * @internal
 */
export interface RequestSpec {
  method: 'GET' | 'POST' | 'DELETE';
  /** Path below the base URL, without a leading slash: `v1/sessions`. */
  path: string;
  body?: unknown;
  query?: Record<string, string>;
  /**
   * Safe to send twice: GET, DELETE, heartbeat, tool response. Requests that are not are only
   * re-sent when the connection provably never reached the server.
   */
  idempotent: boolean;
  /** The fields of the 2xx body the SDK reads; without a shape, the body is read and ignored. */
  shape?: Shape;
}
