import type { ProtocolViolation } from '../http/protocol-violation.js';
import type { RequestHooks } from '../http/request-hooks.js';
import type { Clock } from '../time/clock.js';
import type { StreamEnd } from './checked-stream.js';
import type { ProxyExchange, ProxyObserver } from './proxy-exchange.js';
import type { ProxyReport } from './proxy-report.js';
import { exchangeHeaders } from './upstream-request.js';

/** Warning lines one request prints; the rest are in the journal and the report. */
export const MAX_LOGGED_VIOLATIONS = 5;

/** What every request of one proxy shares. */
export interface ProxyContext {
  readonly clock: Clock;
  readonly report: ProxyReport;
  readonly observers: readonly ProxyObserver[];
  readonly log: (line: string) => void;
}

/** How the response of an exchange went, as its observers are told. */
export interface ExchangeOutcome {
  status: number;
  responseHeaders: Headers | Record<string, string>;
  responseBody?: unknown;
  events?: ProxyExchange['events'];
  streamEnd?: StreamEnd;
}

/**
 * One request through the proxy: its violations (told to the journal through the hooks, counted in
 * the report, printed as one warning line each, up to {@link MAX_LOGGED_VIOLATIONS}) and, once the
 * response body ended, the exchange its observers are told.
 */
export class ProxiedRequest {
  readonly started: number;
  /** Forwarded upstream at (clock ms): event times and the duration count from it. */
  forwardedAt: number;
  requestBody: unknown = undefined;
  status = 0;
  #violations = 0;
  #finished = false;

  constructor(
    readonly seq: number,
    readonly method: string,
    /** Path and query as sent. */
    readonly path: string,
    /** The operation's name (`POST /v1/sessions`), or the method and path for one the protocol has not. */
    readonly operation: string,
    readonly request: Request,
    readonly hooks: RequestHooks,
    private readonly context: ProxyContext,
  ) {
    this.started = context.clock.now();
    this.forwardedAt = this.started;
  }

  /** Whether anyone wants the exchange (events are collected only then). */
  get observed(): boolean {
    return this.context.observers.length > 0;
  }

  /** Milliseconds since the request was forwarded. */
  elapsed(): number {
    return this.context.clock.now() - this.forwardedAt;
  }

  violation(violation: ProtocolViolation): void {
    const { report, log } = this.context;
    if (this.#violations++ === 0) report.requestViolated();
    report.violation(this.operation, violation, this.hooks.requestId);
    this.hooks.onViolation?.(violation);
    if (this.#violations > MAX_LOGGED_VIOLATIONS) return;
    const where = violation.path === '' ? '(body)' : violation.path;
    const id = this.hooks.requestId === undefined ? '' : ` [${this.hooks.requestId}]`;
    log(
      `[parley] proxy: protocol violation in the ${violation.in} of ${this.method} ${this.path}${id}: ` +
        `${where}: expected ${violation.expected}, got ${violation.got}`,
    );
  }

  /** The response body ended: the last warning line, and the exchange to every observer. */
  finish(outcome: ExchangeOutcome): void {
    if (this.#finished) return;
    this.#finished = true;
    const { log, observers } = this.context;
    if (this.#violations > MAX_LOGGED_VIOLATIONS) {
      log(
        `[parley] proxy: ${this.#violations - MAX_LOGGED_VIOLATIONS} more protocol violations in ` +
          `${this.method} ${this.path} (see the journal and GET /_parley/proxy/report)`,
      );
    }
    if (observers.length === 0) return;
    const exchange: ProxyExchange = {
      seq: this.seq,
      method: this.method,
      path: this.path,
      requestHeaders: exchangeHeaders(this.request.headers),
      requestBody: this.requestBody,
      status: outcome.status,
      responseHeaders: exchangeHeaders(outcome.responseHeaders),
      responseBody: outcome.responseBody,
      ...(outcome.events === undefined ? {} : { events: outcome.events }),
      ...(outcome.streamEnd === undefined ? {} : { streamEnd: outcome.streamEnd }),
      durationMs: this.elapsed(),
    };
    for (const observer of observers) {
      try {
        observer.onExchange(exchange);
      } catch (error) {
        log(`[parley] proxy: an observer failed on ${this.method} ${this.path}: ${(error as Error).message}`);
      }
    }
  }
}
