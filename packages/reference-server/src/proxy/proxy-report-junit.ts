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
  const counts = `tests="${cases.length}" failures="${report.violations === 0 ? 0 : cases.length}"`;
  const properties = (
    [
      ['upstream', report.upstream],
      ['requests', report.requests],
      ['requestsWithViolations', report.requestsWithViolations],
      ['violations', report.violations],
      ['unreachable', report.unreachable],
      ['timeouts', report.timeouts],
    ] as const
  ).map(([name, value]) => `      <property name="${name}" value="${xml(String(value))}"/>`);
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="parley checking proxy" ${counts}>`,
    `  <testsuite name="${xml(`protocol of ${report.upstream}`)}" ${counts} errors="0" skipped="0">`,
    '    <properties>',
    ...properties,
    '    </properties>',
    ...cases,
    '  </testsuite>',
    '</testsuites>',
    '',
  ].join('\n');
}

// Characters XML 1.0 cannot hold at all (controls but tab, newline and return; lone surrogates).
const NOT_XML = /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu;

/** Text for an XML attribute or element: escaped, and characters XML cannot hold replaced. */
function xml(text: string): string {
  return text
    .replace(NOT_XML, '\uFFFD')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;');
}
