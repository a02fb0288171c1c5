import * as fs from 'node:fs';
import { dirname } from 'node:path';
import type { ProxyReportSnapshot } from '../proxy/proxy-report.js';
import { proxyReportJunit } from '../proxy/proxy-report-junit.js';
import { replaceFile } from '../utils/replace-file.js';

/** `--report FILE`: JUnit XML for a `.xml` file, else the report's JSON (as `GET /_parley/proxy/report`). */
export function reportFormat(file: string): 'junit' | 'json' {
  return file.toLowerCase().endsWith('.xml') ? 'junit' : 'json';
}

/**
 * Why the report could not be written to `file`, checked when the server starts (so a typo fails
 * at once, not after the tests): a missing or read-only folder (the report is written to a temporary
 * file beside it first), a folder in its place, a read-only file. Undefined when it can be written.
 */
export function reportFileProblem(file: string): string | undefined {
  const existing = statOf(file);
  if (existing?.isDirectory()) return 'is a directory; give a file name (.json, or .xml for JUnit XML)';
  const folder = dirname(file);
  const parent = statOf(folder);
  if (parent === undefined) return `cannot be written: the folder ${folder} does not exist`;
  if (!parent.isDirectory()) return `cannot be written: ${folder} is not a folder`;
  for (const path of existing === undefined ? [folder] : [folder, file]) {
    try {
      fs.accessSync(path, fs.constants.W_OK);
    } catch {
      return `cannot be written: no write permission for ${path}`;
    }
  }
  return undefined;
}

/** Writes the report to `file`, in the format its name asks for (see {@link writeReportFile}). */
export async function writeProxyReport(file: string, report: ProxyReportSnapshot): Promise<void> {
  const text =
    reportFormat(file) === 'junit' ? proxyReportJunit(report) : `${JSON.stringify(report, null, 2)}\n`;
  await writeReportFile(file, text);
}

/**
 * Writes a `--report` file (the checking proxy's, `parley-server drift`'s) whole or not at all: through
 * a temporary file beside it and one rename, so a run that fails or is killed midway keeps the
 * previous report instead of leaving half of a new one.
 */
export async function writeReportFile(file: string, text: string): Promise<void> {
  await replaceFile(fs, file, text);
}

function statOf(path: string): fs.Stats | undefined {
  try {
    return fs.statSync(path);
  } catch {
    return undefined;
  }
}
