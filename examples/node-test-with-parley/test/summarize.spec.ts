import assert from 'node:assert/strict';
import { beforeEach, describe, it } from 'node:test';
import { turn } from '@parley/reference-server';
import { assertReceived, useReferenceServer } from '@parley/reference-server/node-test';
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
    assert.equal(await summarize(parley.client, 'The weather today is sunny.'), 'Sunny weather.');
    assertReceived(parley.server, { method: 'POST', path: '/v1/messages/*' }, { times: 1 });
  });

  it('retries once when the service answers 503', async () => {
    parley.server.faults.next({ status: 503, match: { method: 'POST', path: '/v1/messages/*' } });
    assert.equal(await summarize(parley.client, 'Cats sleep a lot.'), 'A text about cats.');
    assertReceived(parley.server, { method: 'POST', path: '/v1/messages/*' }, { times: 2 });
  });
});
