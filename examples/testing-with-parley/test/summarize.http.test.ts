import { readFile } from 'node:fs/promises';
import { FAULT_HEADER, type JournalEntry, loadScript } from '@parley/reference-server';
import { useReferenceServer } from '@parley/reference-server/vitest';
import { Parley } from '@parley/sdk';
import { beforeEach, describe, expect, it } from 'vitest';
import { summarize } from '../src/summarize.js';

// HTTP mode: a real server on a free port, as another process (or a browser) would reach it.
const parley = useReferenceServer({ createClient: (init) => new Parley({ ...init, maxRetries: 0 }) });

beforeEach(async () => {
  // Rules from a JSON file, the same file `parley-server --script` takes.
  const script = JSON.parse(await readFile(new URL('./summaries.json', import.meta.url), 'utf8'));
  parley.server.script(loadScript(script));
});

/** The journal over HTTP, as a test in another language would read it. */
async function journal(query: string): Promise<JournalEntry[]> {
  const res = await parley.fetch(`/_parley/journal?${query}`);
  return ((await res.json()) as { entries: JournalEntry[] }).entries;
}

describe('summarize (HTTP)', () => {
  it('returns the scripted summary', async () => {
    expect(await summarize(parley.client, 'The weather today is sunny.')).toBe('Sunny weather.');
  });

  it('a fault header on one request does not touch the others', async () => {
    const faulty = summarize(parley.client, 'The weather today is sunny.', {
      headers: { [FAULT_HEADER]: 'status=503' },
    });
    const healthy = summarize(parley.client, 'Cats sleep a lot.');

    await expect(faulty).rejects.toMatchObject({ status: 503, code: 'injected_fault' });
    expect(await healthy).toBe('A text about cats.');

    const sends = await journal('method=POST&path=/v1/messages/*');
    expect(sends.filter((entry) => entry.fault !== undefined)).toHaveLength(2); // both attempts
    expect(sends.filter((entry) => entry.response?.status === 200)).toHaveLength(1);
  });
});
