import { relative } from 'node:path';
import type { RunnerTask, RunnerTestCase } from 'vitest';
import { rerecordCommand } from '../cassette/mismatch-fix.js';

/**
 * The name vitest's `-t` matches a test by: its suites' names and its own, joined by spaces (the
 * file is not one of them).
 */
function filterName(task: RunnerTask): string {
  const names: string[] = [];
  for (let at: RunnerTask | undefined = task; at !== undefined; at = at.suite) names.unshift(at.name);
  return names.join(' ');
}

/** The command that records this test again (with `-t`), or its whole file (`per: 'file'`). */
export function rerecordOf(
  task: RunnerTestCase,
  per: 'file' | 'test',
): { command: string; oneTest: boolean } {
  const file = relative(process.cwd(), task.file.filepath) || task.file.filepath;
  const oneTest = per === 'test';
  return { command: rerecordCommand(file, oneTest ? filterName(task) : undefined), oneTest };
}

/** The full names of the tests under `suite` that this run does not run (`-t`, `.skip`, `.only`, `.todo`). */
export function testsNotRun(suite: { tasks: readonly RunnerTask[] }): string[] {
  const names: string[] = [];
  for (const task of suite.tasks) {
    if (task.type === 'suite') names.push(...testsNotRun(task));
    else if (task.mode !== 'run' && task.mode !== 'only' && task.mode !== 'queued')
      names.push(task.fullTestName);
  }
  return names;
}
