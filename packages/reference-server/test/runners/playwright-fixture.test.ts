import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { stripVTControlCharacters } from 'node:util';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeWithChromium, launchChromium } from '../helpers/chromium.js';
import { runFixture } from './run-fixture.js';

const packageDir = fileURLToPath(new URL('../../', import.meta.url));
const playwrightBin = fileURLToPath(new URL('../../node_modules/@playwright/test/cli.js', import.meta.url));

interface PlaywrightResult {
  status: string;
  retry: number;
  parallelIndex: number;
  errors: Array<{ message?: string }>;
  attachments: Array<{ name: string; contentType: string; body?: string }>;
}
interface PlaywrightSuite {
  title: string;
  specs: Array<{ title: string; tests: Array<{ results: PlaywrightResult[] }> }>;
  suites?: PlaywrightSuite[];
}

/** Each test's results (a retry's after the first) by its title path (`file > describe > title`). */
function attemptsOf(
  suites: readonly PlaywrightSuite[],
  path: string[] = [],
): Map<string, PlaywrightResult[]> {
  const results = new Map<string, PlaywrightResult[]>();
  for (const suite of suites) {
    const here = [...path, suite.title];
    for (const spec of suite.specs)
      results.set([...here, spec.title].join(' > '), spec.tests[0]?.results ?? []);
    for (const [name, result] of attemptsOf(suite.suites ?? [], here)) results.set(name, result);
  }
  return results;
}

/** Each test's first result by its title path. */
function resultsOf(suites: readonly PlaywrightSuite[]): Map<string, PlaywrightResult> {
  const results = new Map<string, PlaywrightResult>();
  for (const [name, [first]] of attemptsOf(suites)) if (first !== undefined) results.set(name, first);
  return results;
}

// Playwright colours its messages when it thinks a terminal reads them; the text is what counts.
const messageOf = (result: PlaywrightResult | undefined) =>
  stripVTControlCharacters(result?.errors.map((e) => e.message ?? '').join('\n') ?? '');

describeWithChromium(
  'the Playwright fixture of @parley/reference-server/playwright, run by Playwright in Chromium',
  () => {
    const output = mkdtempSync(join(tmpdir(), 'parley-playwright-'));
    // Beside the output folder, which Playwright empties when it starts.
    const cassetteDir = mkdtempSync(join(tmpdir(), 'parley-playwright-cassette-'));
    const cassette = join(cassetteDir, 'recording.json');
    let results: Map<string, PlaywrightResult>;
    let attempts: Map<string, PlaywrightResult[]>;
    beforeAll(async () => {
      // The recordings a failing test must keep, under the names recording.pw.ts's tests have.
      const seed = readFileSync(
        new URL('../fixtures/node-test/per-test.cassette.json', import.meta.url),
        'utf8',
      );
      writeFileSync(cassette, seed.replaceAll('"weather > ', '"recording.pw.ts > weather > '));
      const run = await runFixture(
        process.execPath,
        [
          playwrightBin,
          'test',
          '--config',
          'test/fixtures/playwright/playwright.config.ts',
          '--reporter=json',
        ],
        packageDir,
        {
          NODE_OPTIONS: '--conditions=@parley/source',
          PARLEY_PW_OUTPUT: output,
          PARLEY_PW_CASSETTE: cassette,
        },
      );
      const { suites } = JSON.parse(run.stdout) as { suites: PlaywrightSuite[] };
      results = resultsOf(suites);
      attempts = attemptsOf(suites);
    }, 180_000);
    afterAll(() => {
      rmSync(output, { recursive: true, force: true });
      rmSync(cassetteDir, { recursive: true, force: true });
    });

    it("never writes a failed test's recording over the cassette's (per: 'test'); the test that passed is recorded", () => {
      expect(results.get('recording.pw.ts > weather > Oslo')?.status).toBe('failed');
      expect(results.get('recording.pw.ts > weather > Paris')?.status).toBe('passed');
      const { sessions } = JSON.parse(readFileSync(cassette, 'utf8')) as {
        sessions: Array<{ test: string; turns: Array<{ content: Array<{ text: string }> }> }>;
      };
      expect(sessions.map((s) => `${s.test}: ${s.turns[0]?.content[0]?.text}`)).toEqual([
        'recording.pw.ts > weather > Paris: Storm warning.',
        'recording.pw.ts > weather > Oslo: Snow in Oslo.',
      ]);
    });

    it('gives a retry on the shared server an id and a scope of its own', () => {
      const runs = attempts.get('retries.pw.ts > a retry gets an id and a scope of its own') ?? [];
      expect(runs.map((run) => [run.retry, run.status])).toEqual([
        [0, 'failed'],
        [1, 'passed'],
      ]);
      expect(messageOf(runs[0])).toContain('Expected: 1');
    });

    it("answers the page's buffered requests from the worker's server, and queued faults reach the page", () => {
      expect(
        results.get('routes.pw.ts > a buffered reply comes from the worker server through context.route')
          ?.status,
      ).toBe('passed');
      expect(results.get('routes.pw.ts > a queued fault reaches the page')?.status).toBe('passed');
    });

    it("streams a reply to the page word by word through the worker server's port", () => {
      const result = results.get(
        "routes.pw.ts > a streamed reply is rendered word by word, through the worker server's port",
      );
      expect(messageOf(result)).toBe('');
      expect(result?.status).toBe('passed');
    });

    it("blocks the app's own service worker with blockServiceWorkers, which otherwise answers first", () => {
      expect(
        results.get(
          "routes.pw.ts > with the app's own service worker > without blockServiceWorkers, the service worker answers first",
        )?.status,
      ).toBe('passed');
      expect(
        results.get(
          "routes.pw.ts > with blockServiceWorkers > the fixture answers, not the app's service worker",
        )?.status,
      ).toBe('passed');
    });

    it('runs two workers in parallel, each with a server of its own', () => {
      const parallel = [...results].filter(([name]) => name.startsWith('parallel.pw.ts'));
      expect(parallel.map(([, result]) => result.status)).toEqual(['passed', 'passed']);
      expect(new Set(parallel.map(([, result]) => result.parallelIndex)).size).toBe(2);
    });

    it('shares one server between workers, each test scoped by its x-parley-test-id: its own script, faults, journal and sessions', () => {
      const shared = [...results].filter(([name]) => name.startsWith('shared.pw.ts'));
      expect(shared.map(([, result]) => messageOf(result))).toEqual(['', '']);
      expect(shared.map(([, result]) => result.status)).toEqual(['passed', 'passed']);
      expect(new Set(shared.map(([, result]) => result.parallelIndex)).size).toBe(2);
    });

    it('attaches the journal and its page to a failing test', () => {
      const result = results.get('failures.pw.ts > a failing test carries the journal and its page');
      expect(result?.status).toBe('failed');
      const attached = new Map(result?.attachments.map((a) => [a.name, a]));
      const journal = JSON.parse(
        Buffer.from(attached.get('parley-journal.json')?.body ?? '', 'base64').toString(),
      ) as {
        entries: Array<{ method: string; path: string }>;
        sessions: Array<{ messages: unknown[] }>;
      };
      expect(journal.entries.map((e) => `${e.method} ${e.path.replace(/sess_\w+/, ':id')}`)).toEqual([
        'POST /v1/sessions',
        'POST /v1/messages/:id',
      ]);
      expect(journal.sessions[0]?.messages).toHaveLength(2);
      const page = Buffer.from(attached.get('parley-journal.html')?.body ?? '', 'base64').toString();
      expect(attached.get('parley-journal.html')?.contentType).toBe('text/html');
      expect(page).toContain('const parleySnapshot = {"/journal":{"entries":[{"seq":1');
      // A passing test carries nothing.
      expect(results.get('routes.pw.ts > a queued fault reaches the page')?.attachments).toEqual([]);
    });

    it("opens the attached journal page with no server: the test's requests and its session", async () => {
      const result = results.get('failures.pw.ts > a failing test carries the journal and its page');
      const html = result?.attachments.find((a) => a.name === 'parley-journal.html')?.body ?? '';
      const browser = await launchChromium();
      try {
        const page = await browser.context.newPage();
        await page.setContent(Buffer.from(html, 'base64').toString());
        await page.locator('#journal tbody tr').nth(1).waitFor();
        expect(await page.locator('#journal tbody tr').count()).toBe(2);
        expect(await page.locator('#sessions .session .message').allTextContents()).toEqual([
          'user: /say Hi',
          'assistant: Hi',
        ]);
      } finally {
        await browser.close();
      }
    });

    it('fails a test that left a queued fault untaken, unless allowUnused', () => {
      const result = results.get('failures.pw.ts > a fault never taken fails the test');
      expect(result?.status).toBe('failed');
      expect(messageOf(result)).toContain(
        '@parley/reference-server/playwright: 1 thing was never used (pass allowUnused: true to let this pass):\n' +
          '  fault {"status":503} (1 left) queued in test "failures.pw.ts > a fault never taken fails the test"',
      );
      expect(results.get('failures.pw.ts > allowUnused > a fault never taken passes')?.status).toBe('passed');
    });

    it('fails a test during which the deployment broke the protocol', () => {
      const result = results.get(
        'violations.pw.ts > a test during which the deployment broke the protocol fails',
      );
      expect(result?.status).toBe('failed');
      expect(messageOf(result)).toMatch(
        /ProxyViolationsError: http:\/\/deployment\.test broke the protocol: 1 violation in 1 of 1 request\n {2}- POST \/v1\/sessions: response sessionId: expected string, got nothing/,
      );
    });

    it('fails at start when given an option of useReferenceServer, naming the entries that take it', () => {
      const result = results.get(
        'foreign-option.pw.ts > an option of another runner fails at start, naming the entries that take it',
      );
      expect(messageOf(result)).toContain(
        'TypeError: @parley/reference-server/playwright: resetAfterEach is an option of useReferenceServer, from ' +
          '@parley/reference-server/vitest, @parley/reference-server/jest or @parley/reference-server/node-test, ' +
          'not of this playwright helper',
      );
    });
  },
);
