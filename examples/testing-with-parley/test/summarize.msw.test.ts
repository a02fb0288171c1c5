import { turn } from '@parley/reference-server';
import { useReferenceServer } from '@parley/reference-server/vitest';
import { Parley } from '@parley/sdk';
import { describe, expect, it } from 'vitest';
import { summarize } from '../src/summarize.js';

// msw mode: no socket. msw answers the SDK's fetch calls to http://parley.test in this process.
const parley = useReferenceServer({
  mode: 'msw',
  createClient: (init) => new Parley({ ...init, maxRetries: 0 }),
});

describe('summarize (msw)', () => {
  it('returns the text the model answers', async () => {
    parley.server.script({
      rules: [{ match: { lastUserText: /^Summarize:/ }, reply: turn.text('Cats sleep a lot.') }],
    });

    expect(await summarize(parley.client, 'Cats sleep 16 hours a day.')).toBe('Cats sleep a lot.');

    // The journal shows what the app sent.
    const [send] = parley.server.journal.entries({ method: 'POST', path: '/v1/messages/*' });
    expect(send?.body).toEqual({ content: 'Summarize: Cats sleep 16 hours a day.' });
  });

  it('retries once when the send answers 503', async () => {
    parley.server.script([turn.text('Short.')]);
    parley.server.faults.next({ match: { method: 'POST', path: '/v1/messages/*' }, status: 503 });

    expect(await summarize(parley.client, 'A long text.')).toBe('Short.');

    const sends = parley.server.journal.entries({ path: '/v1/messages/*' });
    expect(sends.map((entry) => entry.response?.status)).toEqual([503, 200]);
  });

  it('gives up after two 503s', async () => {
    parley.server.faults.next({ match: { path: '/v1/messages/*' }, status: 503, times: 2 });

    await expect(summarize(parley.client, 'A long text.')).rejects.toMatchObject({ status: 503 });
  });

  it('a conversation the script does not cover fails loudly with no_script_match', async () => {
    parley.server.script({ rules: [{ match: { lastUserText: 'never' }, reply: turn.text('x') }] });

    await expect(summarize(parley.client, 'Anything.')).rejects.toMatchObject({
      status: 501,
      code: 'no_script_match',
    });
  });
});
