import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createReferenceServer, ManualClock, readCassetteFile } from '@parley/reference-server';
import { useReferenceServer } from '@parley/reference-server/vitest';
import { Parley } from '@parley/sdk';
import { describe, expect, it } from 'vitest';
import { converse, type Transcript, UPSTREAM_SCRIPT, UPSTREAM_TOKEN, USERS } from './conversation.js';

const createClient = (init: { baseUrl: string; token: string }) => new Parley({ ...init, maxRetries: 0 });
const FINAL_TEXTS = [
  'It is 18 degrees in Paris, and sunny.',
  'Sorry, I could not find Oslo.',
  'Why do programmers prefer dark mode? The light attracts bugs.',
];

// Each mode records through the checking proxy; the helper writes the file when it closes the server,
// after the tests of its describe block, so the test after that block reads what was written.
for (const mode of ['msw', 'http'] as const) {
  describe(`useReferenceServer({ cassette: { mode: 'record' } }) in ${mode} mode`, () => {
    const file = join(mkdtempSync(join(tmpdir(), `parley-record-${mode}-`)), 'weather.json');
    // The deployment: a reference server in the test process, reached through `upstream.fetch`.
    const deployment = createReferenceServer({ users: USERS, clock: new ManualClock(1_700_000_000_000) });
    deployment.script(UPSTREAM_SCRIPT);
    let recorded: Transcript | undefined;

    describe('the tests that record', () => {
      const parley = useReferenceServer({
        mode,
        createClient,
        cassette: { file, mode: 'record' },
        upstream: {
          url: 'http://deployment.test',
          token: UPSTREAM_TOKEN,
          fetch: (url, init) => deployment.fetch(new Request(url, init)),
          log: () => {},
        },
      });

      it('talk to the deployment through the checking proxy; nothing is written yet', async () => {
        expect(parley.cassetteMode).toBe('record');
        recorded = await converse(parley.client);
        expect(recorded.finalTexts).toEqual(FINAL_TEXTS);
        expect(deployment.sessionCount).toBe(2);
        expect(() => readFileSync(file)).toThrow(/ENOENT/);
      });
    });

    it('the cassette was written when the helper closed the server, and replays the same conversation', async () => {
      const text = readFileSync(file, 'utf8');
      expect(text).not.toContain(UPSTREAM_TOKEN);
      expect(text).not.toContain('parley-demo-token');
      expect(readCassetteFile(file).sessions).toHaveLength(2);
      const offline = createReferenceServer({ replay: file });
      const replayed = await converse(
        new Parley({
          baseUrl: 'http://offline.test',
          token: 'parley-demo-token',
          maxRetries: 0,
          fetch: offline.fetch,
        }),
      );
      expect(replayed).toEqual(recorded);
    });
  });
}
