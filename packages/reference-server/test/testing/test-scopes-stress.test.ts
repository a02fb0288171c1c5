import { startServer } from '@parley/reference-server/node';
import { describe, expect, it } from 'vitest';

const RUNNERS = 16;
const TESTS_PER_RUNNER = 50;

interface Exchange {
  status: number;
  // biome-ignore lint/suspicious/noExplicitAny: JSON bodies are read loosely here
  body: any;
}

describe('one shared server, many runners', () => {
  it(`16 runners x 50 tests on one HTTP server, interleaving scripts, faults, chaos, resets and journal reads: no cross-talk, no errors`, {
    timeout: 240_000,
  }, async () => {
    const running = await startServer({ port: 0, control: true });
    const controlToken = running.server.controlToken as string;
    const problems: string[] = [];
    let requests = 0;
    try {
      const runTest = async (runner: number, test: number) => {
        const id = `runner ${runner} > file.test.ts > test ${test}`;
        const expected = `Reply of runner ${runner}, test ${test}.`;
        const call = async (method: string, path: string, body?: unknown): Promise<Exchange> => {
          requests++;
          const headers: Record<string, string> = {
            authorization: 'Bearer parley-demo-token',
            'x-parley-test-id': id,
          };
          if (path.startsWith('/_parley')) headers['x-parley-control-token'] = controlToken;
          if (body !== undefined) headers['content-type'] = 'application/json';
          const response = await fetch(running.url + path, {
            method,
            headers,
            ...(body === undefined ? {} : { body: JSON.stringify(body) }),
          });
          const text = await response.text();
          return { status: response.status, body: text === '' ? undefined : JSON.parse(text) };
        };
        const check = (what: string, ok: boolean, got?: unknown) => {
          if (!ok) problems.push(`${id}: ${what}${got === undefined ? '' : ` (got ${JSON.stringify(got)})`}`);
        };

        // Every test scripts its own reply; some queue a fault, some turn on chaos, some stream.
        check(
          'script',
          (await call('PUT', '/_parley/script', { turns: [{ text: expected }] })).status === 200,
        );
        const faulty = test % 3 === 0;
        const chaotic = test % 5 === 0;
        if (faulty) {
          const queued = await call('POST', '/_parley/faults', {
            status: 429,
            match: { method: 'GET', path: '/v1/sessions' },
          });
          check('queue a fault', queued.status === 201, queued.status);
        }
        if (chaotic) {
          running.server
            .testScope(id)
            .faults.chaos({ rate: 1, seed: test, kinds: ['status'], match: { method: 'DELETE' } });
        }
        const created = await call('POST', '/v1/sessions');
        check('create', created.status === 201, created.status);
        const sessionId = created.body?.sessionId as string;
        const sent =
          test % 2 === 0
            ? await call('POST', `/v1/messages/${sessionId}`, { content: 'hi' })
            : await call('POST', `/v1/messages/${sessionId}/stream`, { content: 'hi' });
        const text =
          test % 2 === 0
            ? sent.body?.messages?.at(-1)?.content?.[0]?.text
            : sent.body?.events?.at(-1)?.replyStop?.messages?.at(-1)?.content?.[0]?.text;
        check('its own scripted reply', text === expected, text);

        // Its fault hits its own GET once; nobody else's.
        const listed = await call('GET', '/v1/sessions');
        check('the list (its fault)', listed.status === (faulty ? 429 : 200), listed.status);
        const again = await call('GET', '/v1/sessions');
        const ids = (again.body?.sessions ?? []).map((s: { sessionId: string }) => s.sessionId);
        check('only its own session', again.status === 200 && ids.length === 1 && ids[0] === sessionId, ids);

        // Its journal: only its requests, every entry about its session or none.
        const journal = await call('GET', '/_parley/journal');
        const entries = journal.body?.entries ?? [];
        check('journal read', journal.status === 200, journal.status);
        check(
          'journal holds only its own requests',
          entries.length === 4 &&
            entries.every(
              (e: { sessionId?: string }) => e.sessionId === undefined || e.sessionId === sessionId,
            ),
          entries.map((e: { method: string; path: string }) => `${e.method} ${e.path}`),
        );
        const snapshot = await call('GET', '/_parley/sessions');
        check(
          'control sessions show only its own',
          snapshot.body?.sessions?.length === 1 && snapshot.body.sessions[0].sessionId === sessionId,
          snapshot.body?.sessions?.length,
        );

        // Chaos on DELETE for its own requests only.
        const deleted = await call('DELETE', `/v1/sessions/${sessionId}`);
        check('delete (its chaos)', deleted.status === (chaotic ? 503 : 204), deleted.status);

        // Half the tests reset their scope; the others leave it to the idle timeout.
        if (test % 2 === 1) {
          const reset = await call('POST', '/_parley/reset');
          check('reset', reset.status === 200, reset.status);
          const after = await call('GET', '/_parley/journal');
          check(
            'journal empty after its reset',
            after.body?.entries?.length === 0,
            after.body?.entries?.length,
          );
        }
      };
      const runner = async (r: number) => {
        for (let t = 0; t < TESTS_PER_RUNNER; t++) {
          try {
            await runTest(r, t);
          } catch (error) {
            problems.push(`runner ${r} test ${t}: ${(error as Error).message}`);
          }
        }
      };
      await Promise.all(Array.from({ length: RUNNERS }, (_, r) => runner(r)));
    } finally {
      await running.close();
    }
    expect(problems).toEqual([]);
    expect(requests).toBeGreaterThan(RUNNERS * TESTS_PER_RUNNER * 9);
    // The default scope saw none of it.
    expect(running.server.journal.size).toBe(0);
  });
});
