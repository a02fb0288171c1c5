import { junitDocument, xml } from '../utils/junit-xml.js';
import type { ProxyReportSnapshot } from './proxy-report.js';
import { ruleText } from './proxy-violations-error.js';

/**
 * The checking proxy's report as JUnit XML, which CI systems (GitHub Actions reporters, GitLab,
 * Jenkins, Azure) show as test results: one failed testcase per kind of violation (operation, body,
 * path and what was expected), its failure naming how often and the last one found; one passed
 * testcase when there was none. The counts are the suite's properties.
 */
export function proxyReportJunit(report: ProxyReportSnapshot): string {
  const cases = report.rules.map((rule) => {
    const name = `${rule.in} ${rule.path || '(body)'}: expected ${rule.expected}`;
    const message = `${rule.count}x; last: ${rule.last.path || '(body)'} got ${rule.last.got}`;
    return (
      `    <testcase classname="${xml(rule.operation)}" name="${xml(name)}">\n` +
      `      <failure type="protocol_violation" message="${xml(message)}">${xml(ruleText(rule))}</failure>\n` +
      '    </testcase>'
    );
  });
  const told = report.rules.reduce((sum, rule) => sum + rule.count, 0);
  if (told < report.violations) {
    // Past the kinds the report tells apart: counted, so the build still fails on them.
    const more = `${report.violations - told} more violations of other kinds`;
    cases.push(
      `    <testcase classname="protocol" name="other kinds of violation">\n` +
        `      <failure type="protocol_violation" message="${xml(more)}">${xml(more)}</failure>\n` +
        '    </testcase>',
    );
  }
  if (cases.length === 0) {
    const name = `no protocol violations in ${report.requests} requests`;
    cases.push(`    <testcase classname="protocol" name="${xml(name)}"/>`);
  }
  return junitDocument({
    name: 'parley checking proxy',
    suite: `protocol of ${report.upstream}`,
    cases,
    failures: report.violations === 0 ? 0 : cases.length,
    properties: [
      ['upstream', report.upstream],
      ['requests', report.requests],
      ['requestsWithViolations', report.requestsWithViolations],
      ['violations', report.violations],
      ['unreachable', report.unreachable],
      ['timeouts', report.timeouts],
    ],
  });
}
