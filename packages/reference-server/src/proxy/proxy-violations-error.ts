import type { ProxyReportSnapshot, ViolationRule } from './proxy-report.js';

/** Kinds of violation the message lists; the rest are counted in one line. */
const LISTED_RULES = 20;

/**
 * The deployment behind the checking proxy broke the protocol: thrown after the tests of a file by
 * `useReferenceServer` in proxy or record mode, and by `parley-server --fail-on-violation` when it
 * stops. The message names the count and lists each kind of violation: operation, body, path, what
 * was expected, how often, and the request id of the last one (find it in the journal).
 */
export class ProxyViolationsError extends Error {
  override readonly name = 'ProxyViolationsError';
  /** Violations found in all. */
  readonly violations: number;
  /** Requests whose request or answer broke the protocol. */
  readonly requestsWithViolations: number;
  /** Each kind of violation, most frequent first. */
  readonly rules: readonly ViolationRule[];

  constructor(report: ProxyReportSnapshot) {
    super(violationsMessage(report));
    this.violations = report.violations;
    this.requestsWithViolations = report.requestsWithViolations;
    this.rules = report.rules;
  }
}

/** True for a {@link ProxyViolationsError}, also across duplicate copies of this package. */
export function isProxyViolationsError(error: unknown): error is ProxyViolationsError {
  return error instanceof Error && error.name === 'ProxyViolationsError';
}

/** Throws a {@link ProxyViolationsError} when the report holds a violation. */
export function assertNoViolations(report: ProxyReportSnapshot): void {
  if (report.violations > 0) throw new ProxyViolationsError(report);
}

/** One line per kind of violation, under a line with the counts. */
export function violationsMessage(report: ProxyReportSnapshot): string {
  const lines = [
    `${report.upstream} broke the protocol: ${report.violations} ${plural(report.violations, 'violation')} ` +
      `in ${report.requestsWithViolations} of ${report.requests} ${plural(report.requests, 'request')}`,
    ...report.rules.slice(0, LISTED_RULES).map((rule) => `  - ${ruleText(rule)}`),
  ];
  const listed = report.rules.slice(0, LISTED_RULES).reduce((sum, rule) => sum + rule.count, 0);
  if (listed < report.violations) {
    lines.push(
      `  - and ${report.violations - listed} more of other kinds (the journal, GET /_parley/proxy/report)`,
    );
  }
  return lines.join('\n');
}

/** `POST /v1/sessions: response sessionId: expected string, got nothing (2x, last in req_...)` */
export function ruleText(rule: ViolationRule): string {
  const where = rule.last.requestId === undefined ? '' : `, last in ${rule.last.requestId}`;
  return (
    `${rule.operation}: ${rule.in} ${rule.last.path || '(body)'}: expected ${rule.expected}, ` +
    `got ${rule.last.got} (${rule.count}x${where})`
  );
}

function plural(n: number, word: string): string {
  return n === 1 ? word : `${word}s`;
}
