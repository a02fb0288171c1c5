import { useReferenceServer } from '@parley/reference-server/vitest';
import { InternalServerError, Parley, StreamError } from '@parley/sdk';
import { describe, expect, it } from 'vitest';
import { type LookupWeather, weatherReport } from '../src/weather-report.js';

// `scripts/record.ts` sets these while it records against the deployment; a plain test run has
// neither, so the cassette (committed next to this file) is replayed and nothing leaves the machine.
const upstreamUrl = process.env.WEATHER_UPSTREAM_URL;
const upstream =
  upstreamUrl === undefined
    ? {}
    : {
        upstream: {
          url: upstreamUrl,
          ...(process.env.WEATHER_UPSTREAM_TOKEN === undefined
            ? {}
            : { token: process.env.WEATHER_UPSTREAM_TOKEN }),
        },
      };

const parley = useReferenceServer<Parley>({
  // 'auto': replay when the file exists, else record through `upstream`. `per: 'test'`: each
  // session is recorded under its test's name, so `-t`, `.only` or a new test never shift them.
  cassette: { file: new URL('../cassettes/weather-report.json', import.meta.url), mode: 'auto', per: 'test' },
  ...upstream,
  createClient: (init) => new Parley({ ...init, maxRetries: 0 }),
});

const sunny: LookupWeather = async () => ({ temperatureC: 18, sky: 'sunny' });
const unknownCity: LookupWeather = async (city) => {
  throw new Error(`No weather station in ${city}`);
};

describe('weatherReport against the recorded deployment', () => {
  it('runs the tool call with its own lookup and returns the final answer', async () => {
    expect(await weatherReport(parley.client, 'Paris', sunny)).toBe(
      'Right now it is 18 °C and sunny in Paris. A good day for a walk!',
    );
    // One tool response, then the resume that gets the answer.
    expect(parley.server).toHaveReceived({ method: 'POST', path: '/v1/tools/response/*/*' }, { times: 1 });
  });

  it('reports a failed lookup to the model, which apologizes', async () => {
    expect(await weatherReport(parley.client, 'Atlantis', unknownCity)).toBe(
      'Sorry, I could not get the weather for that city. Is the name right?',
    );
  });

  it('a conversation the recording does not hold fails loudly (replay_mismatch)', async () => {
    if (parley.cassetteMode === 'record') return; // nothing to compare with while recording
    const error = await weatherReport(parley.client, 'Rome', sunny).catch((e: unknown) => e);
    expect(
      (error instanceof InternalServerError || error instanceof StreamError) &&
        error.code === 'replay_mismatch',
    ).toBe(true);
  });
});
