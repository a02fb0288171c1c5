import type { ProtocolViolation } from '../http/protocol-violation.js';

/** One kind of violation: an operation, a body, a path (indexes as `[*]`) and what was expected. */
export interface ViolationRule {
  /** The operation, e.g. `POST /v1/messages/{sessionId}/stream`, or the method and path as sent. */
  operation: string;
  in: ProtocolViolation['in'];
  /** The path with array indexes as `[*]`, e.g. `events[*].contentBlockDelta.delta.text`. */
  path: string;
  expected: string;
  /** How often it was found. */
  count: number;
  /** The last one found: its exact path, what came, and the journal's request id. */
  last: { path: string; got: string; requestId: string | undefined };
}

/** What `GET /_parley/proxy/report` and `server.proxy.report()` give. */
export interface ProxyReportSnapshot {
  /** The upstream's base URL. */
  upstream: string;
  /** Requests forwarded (or answered 502/504 for the upstream). */
  requests: number;
  /** Requests whose request or answer broke the protocol. */
  requestsWithViolations: number;
  /** Violations found in all. */
  violations: number;
  /** Answered `502 upstream_unreachable`. */
  unreachable: number;
  /** Answered `504 upstream_timeout`. */
  timeouts: number;
  /** Buffered answers longer than `maxCheckedBodyBytes`: passed on unchecked. */
  unchecked: number;
  /** Each kind of violation, most frequent first (at most {@link MAX_RULES} kinds). */
  rules: ViolationRule[];
}

/** Kinds of violation the report tells apart; more are counted in `violations` only. */
export const MAX_RULES = 100;

/** The checking proxy's running tally. */
export class ProxyReport {
  #requests = 0;
  #withViolations = 0;
  #violations = 0;
  #unreachable = 0;
  #timeouts = 0;
  #unchecked = 0;
  readonly #rules = new Map<string, ViolationRule>();

  constructor(readonly upstream: string) {}

  request(): void {
    this.#requests++;
  }

  upstreamFailed(kind: 'unreachable' | 'timeout'): void {
    if (kind === 'unreachable') this.#unreachable++;
    else this.#timeouts++;
  }

  /** An answer too long to check was passed on unchecked. */
  unchecked(): void {
    this.#unchecked++;
  }

  /** Counts a request that broke the protocol once, however many violations it had. */
  requestViolated(): void {
    this.#withViolations++;
  }

  violation(operation: string, violation: ProtocolViolation, requestId: string | undefined): void {
    this.#violations++;
    const path = violation.path.replace(/\[\d+\]/g, '[*]');
    const key = `${operation}\u0000${violation.in}\u0000${path}\u0000${violation.expected}`;
    const last = { path: violation.path, got: violation.got, requestId };
    const rule = this.#rules.get(key);
    if (rule !== undefined) {
      rule.count++;
      rule.last = last;
    } else if (this.#rules.size < MAX_RULES) {
      this.#rules.set(key, {
        operation,
        in: violation.in,
        path,
        expected: violation.expected,
        count: 1,
        last,
      });
    }
  }

  snapshot(): ProxyReportSnapshot {
    return {
      upstream: this.upstream,
      requests: this.#requests,
      requestsWithViolations: this.#withViolations,
      violations: this.#violations,
      unreachable: this.#unreachable,
      timeouts: this.#timeouts,
      unchecked: this.#unchecked,
      rules: [...this.#rules.values()]
        .sort((a, b) => b.count - a.count)
        .map((rule) => ({ ...rule, last: { ...rule.last } })),
    };
  }

  /** One line for the server's stop: counts, and the most frequent violation. */
  summary(): string {
    const s = this.snapshot();
    const failures = [
      ...(s.unreachable > 0 ? [`${s.unreachable} unreachable`] : []),
      ...(s.timeouts > 0 ? [`${s.timeouts} timed out`] : []),
      ...(s.unchecked > 0 ? [`${s.unchecked} too long to check`] : []),
    ];
    const top = s.rules[0];
    return (
      `[parley] proxy report: ${s.requests} requests to ${s.upstream}` +
      (failures.length > 0 ? ` (${failures.join(', ')})` : '') +
      `, ${s.violations} protocol violations in ${s.requestsWithViolations} requests` +
      (top === undefined
        ? ''
        : `; most frequent: ${top.operation} ${top.in} ${top.path || '(body)'}: expected ${top.expected} (${top.count}x)`)
    );
  }
}
