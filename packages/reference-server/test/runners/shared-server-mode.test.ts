import { ManualClock, turn } from '@parley/reference-server';
import { connectSharedServer, startServer } from '@parley/reference-server/node';
import { useReferenceServer } from '@parley/reference-server/vitest';
import { Parley } from '@parley/sdk';
import { afterAll, describe, expect, it } from 'vitest';
import { createRunnerHarness } from '../../src/adapters/runner-harness.js';

type CurrentFetch = Awaited<ReturnType<ReturnType<typeof createRunnerHarness>['beginTest']>>['fetch'];

const CONTROL_TOKEN = 'shared-control-token';
// One server for the file's helpers, as `parley-server run --control` gives a CI job.
const shared = await startServer({ port: 0, control: true, controlToken: CONTROL_TOKEN });
afterAll(() => shared.close());
const FILE = 'packages/reference-server/test/runners/shared-server-mode.test.ts';
const VITEST = { runner: 'vitest', verdict: 'file' } as const;

/** A test's sessions on the shared server, read through the control route with its id. */
async function sessionsOf(testId: string): Promise<unknown[]> {
  const response = await fetch(`${shared.url}/_parley/sessions`, {
    headers: { 'x-parley-control-token': CONTROL_TOKEN, 'x-parley-test-id': testId },
  });
  return ((await response.json()) as { sessions: unknown[] }).sessions;
}

describe('useReferenceServer({ serverUrl }): each test in a scope of its own on the shared server', () => {
  const parley = useReferenceServer({
    serverUrl: shared.url,
    controlToken: CONTROL_TOKEN,
    createClient: (init) => new Parley({ ...init, maxRetries: 0 }),
  });
  let before: string | undefined;

  it("answers with the test's script and fault, and journals in the test's scope only", async () => {
    await parley.script([turn.text('Hello from my scope.')]);
    await parley.faults.next({ status: 503, match: { path: '/v1/sessions' } });
    await expect(parley.client.sessions.create()).rejects.toMatchObject({ status: 503 });
    const { sessionId } = await parley.client.sessions.create();
    const reply = await parley.client.messages.send(sessionId, { content: 'Hi' });
    expect(reply.messages.at(-1)?.content).toEqual([{ type: 'text', text: 'Hello from my scope.' }]);
    expect((await parley.journal()).map((entry) => entry.response?.status)).toEqual([503, 201, 200]);
    expect(await parley.sessions()).toHaveLength(1);
    // The id is the file and the test's full name: another file's test of the same name has another.
    expect(parley.testId).toBe(
      `${FILE} > useReferenceServer({ serverUrl }): each test in a scope of its own on the shared server > ` +
        "answers with the test's script and fault, and journals in the test's scope only",
    );
    expect(shared.server.journal.size).toBe(0);
    before = parley.testId;
  });

  it('resets the test before after it ends, and the next test has another id', async () => {
    expect(parley.testId).not.toBe(before);
    expect(await sessionsOf(before ?? '')).toEqual([]);
    const response = await parley.fetch('/v1/sessions', { method: 'POST' });
    expect(response.status).toBe(201);
    expect(await sessionsOf(parley.testId ?? '')).toHaveLength(1);
    expect(() => parley.server).toThrow(
      'useReferenceServer: the tests run against a shared server (serverUrl), not one in this process',
    );
  });
});

describe('a shared config never falls back to a server of its own', () => {
  it('fails when called without serverUrl or PARLEY_BASE_URL, naming both and parley-server run', () => {
    const message =
      /useReferenceServer: a shared server needs its URL: pass serverUrl, or set PARLEY_BASE_URL; start one around the test command with `npx parley-server run --control -- <command>`/;
    expect(() => createRunnerHarness(VITEST, { mode: 'shared' }, {})).toThrow(message);
    // `serverUrl: process.env.PARLEY_BASE_URL` when it is unset.
    expect(() => createRunnerHarness(VITEST, { serverUrl: undefined, controlToken: 'x' }, {})).toThrow(
      message,
    );
  });

  it('fails at start when nothing answers at the URL, naming serverUrl, PARLEY_BASE_URL and parley-server run, not a bare fetch failed', async () => {
    const gone = await startServer({ port: 0 });
    await gone.close();
    const harness = createRunnerHarness(
      VITEST,
      { mode: 'shared' },
      { PARLEY_BASE_URL: gone.url, PARLEY_CONTROL_TOKEN: CONTROL_TOKEN },
    );
    await expect(harness.start()).rejects.toThrow(
      `useReferenceServer: the shared server at ${gone.url} (serverUrl or PARLEY_BASE_URL) cannot be reached ` +
        '(ECONNREFUSED): start one around the test command with `npx parley-server run --control -- <command>`',
    );
  });

  it('fails at start on a wrong control token, naming controlToken and PARLEY_CONTROL_TOKEN', async () => {
    const harness = createRunnerHarness(VITEST, { serverUrl: shared.url, controlToken: 'wrong' }, {});
    await expect(harness.start()).rejects.toThrow(
      `the shared server at ${shared.url} refused the control token: give its token as controlToken or PARLEY_CONTROL_TOKEN`,
    );
  });

  it("refuses an option of a server of the file's own, which the shared server would not apply", () => {
    expect(() =>
      createRunnerHarness(
        VITEST,
        { serverUrl: shared.url, controlToken: 'x', clock: new ManualClock(0) },
        {},
      ),
    ).toThrow("useReferenceServer: clock is an option of a server of the file's own, not of a shared one");
  });
});

describe('connectSharedServer: the per-test handle any runner (or a container module) reuses', () => {
  it('gives two runs of one test, and two tests, scopes of their own', async () => {
    const server = await connectSharedServer({ baseUrl: shared.url, controlToken: CONTROL_TOKEN });
    const first = server.testScope('menu > café');
    const retry = server.testScope('menu > café', { retry: 1 });
    const other = server.testScope('menu > caf%C3%A9');
    expect(new Set([first.testId, retry.testId, other.testId]).size).toBe(3);
    await first.script([turn.text('first')]);
    await other.script([turn.text('other')]);
    for (const scope of [first, other]) {
      const created = await scope.fetch('/v1/sessions', { method: 'POST' });
      const { sessionId } = (await created.json()) as { sessionId: string };
      await scope.fetch(`/v1/messages/${sessionId}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ content: 'Hi' }),
      });
    }
    const [firstReply, otherReply] = await Promise.all([first.journal(), other.journal()]);
    expect(JSON.stringify(firstReply.at(-1)?.response)).toContain('first');
    expect(JSON.stringify(otherReply.at(-1)?.response)).toContain('other');
    expect(await retry.sessions()).toEqual([]);
    await Promise.all([first.reset(), other.reset()]);
    expect(await first.sessions()).toEqual([]);
  });

  it('starts each test in a clean scope on a server that outlives a run: a later run of the same test neither gets 410 nor what an earlier run left', async () => {
    const runOnce = async (work: (test: { fetch: NonNullable<CurrentFetch> }) => Promise<void>) => {
      const harness = createRunnerHarness(VITEST, { serverUrl: shared.url, controlToken: CONTROL_TOKEN }, {});
      await harness.start();
      const test = await harness.beginTest({ name: 'weather', file: 'later-run.test.ts' });
      await work({ fetch: test.fetch as NonNullable<CurrentFetch> });
      await harness.endTest('passed');
      await harness.finish();
    };
    await runOnce(async ({ fetch }) => {
      expect((await fetch('/v1/sessions', { method: 'POST' })).status).toBe(201);
    });
    // A run killed mid-test: its scope keeps a queued fault, never reset.
    const killed = (
      await connectSharedServer({ baseUrl: shared.url, controlToken: CONTROL_TOKEN })
    ).testScope('later-run.test.ts > weather');
    await killed.queueFault({ status: 503, match: { path: '/v1/sessions' } });
    await runOnce(async ({ fetch }) => {
      const created = await fetch('/v1/sessions', { method: 'POST' });
      expect(created.status).toBe(201);
    });
  });

  it('a fault matched by a RegExp path is refused by the handle (JSON has no RegExp), and the test’s requests are unharmed', async () => {
    const server = await connectSharedServer({ baseUrl: shared.url, controlToken: CONTROL_TOKEN });
    const scope = server.testScope('regexp-fault.test.ts > refused');
    await expect(scope.queueFault({ status: 503, match: { path: /sessions/ } })).rejects.toThrow(
      'A shared server takes a fault’s match.path as a string (`*` for one path segment), not a RegExp',
    );
    expect(await scope.pendingFaults()).toEqual([]);
    expect((await scope.fetch('/v1/sessions', { method: 'POST' })).status).toBe(201);
    await scope.reset();
  });

  it('gives a test name begun again in one process (a retry, a second test of one title) another id', async () => {
    const harness = createRunnerHarness(VITEST, { serverUrl: shared.url, controlToken: CONTROL_TOKEN }, {});
    await harness.start();
    const a = await harness.beginTest({ name: 'flaky', file: 'x.test.ts' });
    await harness.endTest('failed');
    const b = await harness.beginTest({ name: 'flaky', file: 'x.test.ts' });
    await harness.endTest('passed');
    await harness.finish();
    expect([a.testId, b.testId]).toEqual(['x.test.ts > flaky', 'x.test.ts > flaky %run=2']);
  });
});
