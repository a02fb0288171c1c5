import { describe, expect, it } from 'vitest';
import { createRunnerHarness } from '../../src/adapters/runner-harness.js';
import { USERS } from '../cassette/conversation.js';
import { askWeather, clientOf, recordPerTest } from '../cassette/weather-upstream.js';

// As the fixture sets it up: the page's base URL (the client's, here) is a host the server lets in.
const PLAYWRIGHT = { runner: 'playwright', verdict: 'test', allowedHost: 'local.test' } as const;

describe("the Playwright fixture's verdict, as each test ends (ParleyTestOptions.allowUnused)", () => {
  it("a test's own recording (per: 'test') it never replayed fails that test, naming it; its allowUnused lets it pass", async () => {
    const file = await recordPerTest();
    const harness = createRunnerHarness(PLAYWRIGHT, { users: USERS, cassette: { file, per: 'test' } }, {});
    await harness.start();
    try {
      const server = harness.running?.server;
      if (server === undefined) throw new Error('the harness started no server of its own');
      await harness.beginTest({ name: 'weather > Paris' });
      expect(await askWeather(clientOf(server.fetch), 'Paris')).toContain('18 degrees in Paris');
      // Oslo's recording, unused so far, is not Paris's to answer for.
      await expect(harness.endTest('passed')).resolves.toBeUndefined();

      await harness.beginTest({ name: 'weather > Oslo' });
      await expect(harness.endTest('passed')).rejects.toThrow(
        '1 thing was never used (pass allowUnused: true to let this pass):\n' +
          '  recording session 2 of 2 (test "weather > Oslo"): never replayed',
      );
      await harness.beginTest({ name: 'weather > Oslo' });
      await expect(harness.endTest('passed', { allowUnused: true })).resolves.toBeUndefined();
    } finally {
      // Judged test by test: nothing is left for the end of the run.
      await expect(harness.finish()).resolves.toBeUndefined();
    }
  });
});
