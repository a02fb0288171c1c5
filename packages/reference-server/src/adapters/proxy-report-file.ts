import { accessSync, constants, statSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import type { ProxyReportSnapshot } from '../proxy/proxy-report.js';
import { proxyReportJunit } from '../proxy/proxy-report-junit.js';

/** `--report FILE`: JUnit XML for a `.xml` file, else the report's JSON (as `GET /_parley/proxy/report`). */
export function reportFormat(file: string): 'junit' | 'json' {
  return file.toLowerCase().endsWith('.xml') ? 'junit' : 'json';
}

/**
 * Why the report could not be written to `file`, checked when the server starts (so a typo fails
 * at once, not after the tests): a missing or read-only folder, a folder in its place, a read-only
 * file. Undefined when it can be written.
 */
export function reportFileProblem(file: string): string | undefined {
  const existing = statOf(file);
  if (existing?.isDirectory()) return 'is a directory; give a file name (.json, or .xml for JUnit XML)';
  const folder = dirname(file);
  const parent = statOf(folder);
  if (parent === undefined) return `cannot be written: the folder ${folder} does not exist`;
  if (!parent.isDirectory()) return `cannot be written: ${folder} is not a folder`;
  try {
    accessSync(existing === undefined ? folder : file, constants.W_OK);
  } catch {
    return `cannot be written: no write permission for ${existing === undefined ? folder : file}`;
  }
  return undefined;
}

/** Writes the report to `file`, in the format its name asks for. */
export function writeProxyReport(file: string, report: ProxyReportSnapshot): void {
  const text =
    reportFormat(file) === 'junit' ? proxyReportJunit(report) : `${JSON.stringify(report, null, 2)}\n`;
  writeFileSync(file, text);
}

function statOf(path: string): ReturnType<typeof statSync> | undefined {
  try {
    return statSync(path);
  } catch {
    return undefined;
  }
}
