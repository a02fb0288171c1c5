/** Where Parley's Jest environments keep the outcomes of the file's tests, on the test's global. */
export const JEST_OUTCOMES = Symbol.for('@parley/reference-server/jest-outcomes');

/** The tests of the file that failed, and those Jest skipped, by the name `currentTestName` gives them. */
export interface JestOutcomes {
  readonly failed: Set<string>;
  readonly notRun: Set<string>;
}

/** A jest-circus test or describe block: its name and its parent. */
interface CircusBlock {
  name: string;
  parent?: CircusBlock | undefined;
}

/** What of a jest-circus event is read: its name, and the test (or hook's test) it is about. */
interface CircusEvent {
  name: string;
  test?: CircusBlock | undefined;
}

/**
 * Notes a jest-circus event's outcome on the test's global (`handleTestEvent` of Parley's Jest
 * environments): a test whose function or `beforeEach`/`afterEach` hook failed, and a skipped or
 * todo test. `useReferenceServer` reads them: a failed or skipped test's recording is not written.
 */
export function noteJestEvent(global: object, event: CircusEvent): void {
  const slot = global as Record<symbol, JestOutcomes | undefined>;
  const outcomes = slot[JEST_OUTCOMES] ?? { failed: new Set<string>(), notRun: new Set<string>() };
  slot[JEST_OUTCOMES] = outcomes;
  const { test } = event;
  if (test === undefined) return;
  if (event.name === 'test_fn_failure' || event.name === 'hook_failure') outcomes.failed.add(testName(test));
  else if (event.name === 'test_skip' || event.name === 'test_todo') outcomes.notRun.add(testName(test));
}

/** The outcomes Parley's Jest environment noted; undefined under another environment. */
export function jestOutcomes(): JestOutcomes | undefined {
  return (globalThis as Record<symbol, JestOutcomes | undefined>)[JEST_OUTCOMES];
}

/** Jest's name of a test (`currentTestName`): its describe blocks' names and its own, by spaces. */
function testName(test: CircusBlock): string {
  const names: string[] = [];
  // The root block (no parent) has no name of the test's.
  for (let at: CircusBlock | undefined = test; at?.parent !== undefined; at = at.parent)
    names.unshift(at.name);
  return names.join(' ');
}
