import { type ProxyReportSnapshot, proxyReportJunit, type ViolationRule } from '@parley/reference-server';
import { describe, expect, it } from 'vitest';

const report = (rules: ViolationRule[], violations: number): ProxyReportSnapshot => ({
  upstream: 'https://parley.example.com',
  requests: 10,
  requestsWithViolations: rules.length === 0 ? 0 : 3,
  violations,
  unreachable: 1,
  timeouts: 0,
  unchecked: 0,
  rules,
});

const rule = (got: string, count = 1): ViolationRule => ({
  operation: 'POST /v1/messages/{sessionId}',
  in: 'response',
  path: 'content[*].text',
  expected: 'string',
  count,
  last: { path: 'content[0].text', got, requestId: 'req_1' },
});

describe('the JUnit XML report', () => {
  it('no violation: one passed testcase, no failures, the counts as properties', () => {
    const xml = proxyReportJunit(report([], 0));
    expect(xml).toContain('<testsuites name="parley checking proxy" tests="1" failures="0">');
    expect(xml).toContain('<testcase classname="protocol" name="no protocol violations in 10 requests"/>');
    expect(xml).toContain('<property name="unreachable" value="1"/>');
    expect(xml).not.toContain('<failure');
  });

  it('escapes what came from the deployment, and drops characters XML cannot hold', () => {
    const xml = proxyReportJunit(report([rule('text "<html>&\u0001</html>\'"', 2)], 2));
    expect(xml).toContain('got text &quot;&lt;html&gt;&amp;\uFFFD&lt;/html&gt;&apos;&quot;');
    expect(xml).not.toContain('\u0001');
    expect(xml.match(/<failure /g)).toHaveLength(1);
  });

  it('violations past the kinds the report tells apart are one more failed testcase', () => {
    const xml = proxyReportJunit(report([rule('number 1', 3)], 5));
    expect(xml).toContain('tests="2" failures="2"');
    expect(xml).toContain('message="2 more violations of other kinds"');
  });
});
