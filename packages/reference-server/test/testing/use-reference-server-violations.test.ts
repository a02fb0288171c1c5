import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { runFixture, VITEST_BIN } from '../runners/run-fixture.js';

// The fixtures are test files meant to fail: they run in a vitest of their own, as a user's would.
const fixtures = fileURLToPath(new URL('../fixtures/vitest/', import.meta.url));

interface FileResult {
  name: string;
  status: 'passed' | 'failed';
  message: string;
  assertionResults: Array<{ status: string }>;
}

/** Runs the fixture files with the JSON reporter; resolves with each file's result by name. */
async function runFixtures(): Promise<Map<string, FileResult>> {
  // Exit code 1 is expected (a fixture fails); anything unreadable is not.
  const run = await runFixture(
    process.execPath,
    [VITEST_BIN, 'run', '--config', 'vitest.config.ts', '--reporter=json'],
    fixtures,
  );
  try {
    const { testResults } = JSON.parse(run.stdout) as { testResults: FileResult[] };
    return new Map(testResults.map((r) => [r.name.slice(r.name.lastIndexOf('/') + 1), r]));
  } catch (cause) {
    throw new Error(`unreadable vitest output (status ${run.status}): ${run.stdout}\n${run.stderr}`, {
      cause,
    });
  }
}

describe('useReferenceServer in proxy mode, against a deployment that breaks the protocol', () => {
  it('fails the file after its tests, listing each kind of violation and where', async () => {
    const results = await runFixtures();
    const failing = results.get('violations-fail-the-file.fixture.ts');
    expect(failing?.assertionResults.map((t) => t.status)).toEqual(['passed']);
    expect(failing?.status).toBe('failed');
    expect(failing?.message).toMatch(
      /^http:\/\/deployment\.test broke the protocol: 1 violation in 1 of 1 request\n {2}- POST \/v1\/sessions: response sessionId: expected string, got nothing \(1x, last in req_[0-9a-f]{32}\)$/,
    );
    // failOnViolation: false leaves the violations to the report.
    expect(results.get('violations-allowed.fixture.ts')?.status).toBe('passed');
  }, 60_000);
});
