import { junitDocument, xml } from '../utils/junit-xml.js';
import type { DriftDifference, DriftReport, DriftUsage, SessionDrift, TurnDrift } from './drift-types.js';

/** The report as text: a summary line, then each turn that differs and each session that stopped. */
export function formatDriftReport(report: DriftReport): string {
  const ignored = report.ignored.length === 0 ? '' : ` (ignoring ${report.ignored.join(', ')})`;
  const lines = [
    `drift of ${report.cassette} against ${report.upstream}${ignored}: ${report.turnsWithDrift} of ` +
      `${report.turnsCompared} turns differ (${report.drifts} differences) in ${report.sessions} sessions; ` +
      `${report.violations} protocol violations`,
  ];
  for (const session of report.results) {
    for (const turn of session.turns) {
      if (turn.differences.length === 0) continue;
      lines.push(`  ${where(session, turn)}`);
      for (const difference of turn.differences) lines.push(`    ${differenceText(difference)}`);
      if (!turn.differences.some((d) => d.kind === 'usage'))
        lines.push(`    usage beside it: ${usageText(turn)}`);
    }
    if (session.stopped !== undefined) lines.push(`  ${sessionName(session)} stopped: ${session.stopped}`);
  }
  if (report.violations > 0) {
    lines.push(`  the deployment broke the protocol (not drift): ${report.violations} violations`);
    for (const rule of report.proxy.rules) {
      lines.push(
        `    - ${rule.operation}: ${rule.in} ${rule.path || '(body)'}: expected ${rule.expected} (${rule.count}x)`,
      );
    }
  }
  return `${lines.join('\n')}\n`;
}

function sessionName(session: SessionDrift): string {
  return `session ${session.session}${session.test === undefined ? '' : ` (test ${JSON.stringify(session.test)})`}`;
}

function where(session: SessionDrift, turn: TurnDrift): string {
  return `${sessionName(session)}, turn ${turn.turn} (${turn.input})`;
}

function differenceText(d: DriftDifference): string {
  const similarity = d.similarity === undefined ? '' : ` similarity ${similarityText(d.similarity)},`;
  return `${d.kind}:${similarity} recorded ${d.recorded}, live ${d.live}`;
}

/** Two decimals, never `1.00` for texts that differ: `>0.99` there. */
function similarityText(similarity: number): string {
  const text = similarity.toFixed(2);
  return similarity < 1 && text === '1.00' ? '>0.99' : text;
}

function usageText(turn: TurnDrift): string {
  const one = (usage: DriftUsage | undefined) =>
    usage === undefined ? 'none' : `${usage.inputTokens} in, ${usage.outputTokens} out`;
  return `recorded ${one(turn.usage.recorded)}, live ${one(turn.usage.live)}`;
}

/**
 * The report as JUnit XML, as the checking proxy's: one testcase per recorded turn (failed when it
 * differs, its failure listing what), one failed testcase per session that stopped, and one for
 * protocol violations when there were any (type `protocol_violation`, apart from drift).
 */
export function driftReportJunit(report: DriftReport): string {
  const cases: string[] = [];
  let failures = 0;
  for (const session of report.results) {
    const classname = xml(sessionName(session));
    for (const turn of session.turns) {
      const name = xml(`turn ${turn.turn} (${turn.input})`);
      if (turn.differences.length === 0) {
        cases.push(`    <testcase classname="${classname}" name="${name}"/>`);
        continue;
      }
      failures++;
      const kinds = turn.differences.map((d) => d.kind).join(', ');
      const beside = turn.differences.some((d) => d.kind === 'usage')
        ? []
        : [`usage beside it: ${usageText(turn)}`];
      const body = [...turn.differences.map(differenceText), ...beside].join('\n');
      cases.push(
        `    <testcase classname="${classname}" name="${name}">\n` +
          `      <failure type="drift" message="${xml(`differs: ${kinds}`)}">${xml(body)}</failure>\n` +
          '    </testcase>',
      );
    }
    if (session.stopped !== undefined) {
      failures++;
      cases.push(
        `    <testcase classname="${classname}" name="the whole session">\n` +
          `      <failure type="stopped" message="${xml(session.stopped)}">${xml(session.stopped)}</failure>\n` +
          '    </testcase>',
      );
    }
  }
  if (report.violations > 0) {
    failures++;
    const text = report.proxy.rules
      .map(
        (rule) =>
          `${rule.operation}: ${rule.in} ${rule.path || '(body)'}: expected ${rule.expected} (${rule.count}x)`,
      )
      .join('\n');
    cases.push(
      `    <testcase classname="protocol" name="${xml(`protocol of ${report.upstream}`)}">\n` +
        `      <failure type="protocol_violation" message="${xml(`${report.violations} violations`)}">${xml(text)}</failure>\n` +
        '    </testcase>',
    );
  }
  return junitDocument({
    name: 'parley drift',
    suite: `drift of ${report.cassette}`,
    cases,
    failures: failures,
    properties: [
      ['cassette', report.cassette],
      ['upstream', report.upstream],
      ['ignored', report.ignored.join(',')],
      ['drifts', report.drifts],
      ['violations', report.violations],
    ],
  });
}
