import { beforeEach, describe, expect, it } from '@jest/globals';
import { turn } from '@parley/reference-server';
import { useReferenceServer } from '@parley/reference-server/jest';
import { Parley } from '@parley/sdk';
import { summarize } from '../src/summarize.js';

// A real server on a free port for this file: reset after each test, closed after all.
const parley = useReferenceServer({ createClient: (init) => new Parley({ ...init, maxRetries: 0 }) });

beforeEach(() => {
  parley.server.script({
    rules: [
      { match: { lastUserText: /weather/i }, reply: turn.text('Sunny weather.') },
      { match: { lastUserText: /cats/i }, reply: turn.text('A text about cats.') },
    ],
  });
});

describe('summarize', () => {
  it('returns the scripted summary', async () => {
    expect(await summarize(parley.client, 'The weather today is sunny.')).toBe('Sunny weather.');
    expect(parley.server).toHaveReceived({ method: 'POST', path: '/v1/messages/*' }, { times: 1 });
  });

  it('retries once when the service answers 503', async () => {
    parley.server.faults.next({ status: 503, match: { method: 'POST', path: '/v1/messages/*' } });
    expect(await summarize(parley.client, 'Cats sleep a lot.')).toBe('A text about cats.');
    expect(parley.server).toHaveReceived({ method: 'POST', path: '/v1/messages/*' }, { times: 2 });
  });
});
