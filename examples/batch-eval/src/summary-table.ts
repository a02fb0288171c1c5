import type { EvalResult } from './evaluate.js';

const COLUMNS = ['id', 'status', 'latency', 'stop reason', 'detail'] as const;

/** The results as an aligned text table, followed by a one-line count. */
export function formatSummary(results: readonly EvalResult[]): string {
  const rows = results.map((r) => [r.id, r.status, `${r.latencyMs} ms`, r.stopReason ?? '-', r.detail ?? '']);
  const widths = COLUMNS.map((title, i) => Math.max(title.length, ...rows.map((row) => row[i]!.length)));
  const format = (cells: readonly string[]) =>
    cells
      .map((cell, i) => (i === 2 ? cell.padStart(widths[i]!) : cell.padEnd(widths[i]!)))
      .join('  ')
      .trimEnd();
  const count = (status: EvalResult['status']) => results.filter((r) => r.status === status).length;
  return [
    format(COLUMNS),
    format(widths.map((w) => '─'.repeat(w))),
    ...rows.map(format),
    '',
    `${results.length} prompts: ${count('pass')} passed, ${count('fail')} failed, ${count('error')} errors`,
  ].join('\n');
}
