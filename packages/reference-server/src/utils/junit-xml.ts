/** A JUnit XML report of one suite: what the checking proxy's and the drift report's files share. */
export interface JunitSuite {
  /** The `<testsuites>` name, e.g. `parley drift`. */
  name: string;
  /** The `<testsuite>` name. */
  suite: string;
  /** The `<testcase>` elements, each already written (escape their text with {@link xml}). */
  cases: readonly string[];
  failures: number;
  /** `<property>` name and value pairs of the suite. */
  properties: ReadonlyArray<readonly [string, string | number | boolean]>;
}

/** The whole document: testsuites, one testsuite with its properties and cases. */
export function junitDocument({ name, suite, cases, failures, properties }: JunitSuite): string {
  const counts = `tests="${cases.length}" failures="${failures}"`;
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="${xml(name)}" ${counts}>`,
    `  <testsuite name="${xml(suite)}" ${counts} errors="0" skipped="0">`,
    '    <properties>',
    ...properties.map(([key, value]) => `      <property name="${key}" value="${xml(String(value))}"/>`),
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
export function xml(text: string): string {
  return text
    .replace(NOT_XML, '\uFFFD')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;');
}
