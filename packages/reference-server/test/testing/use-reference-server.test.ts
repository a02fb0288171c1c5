import { CONTROL_TOKEN_HEADER, FAULT_HEADER, turn } from '@parley/reference-server';
import { useReferenceServer } from '@parley/reference-server/vitest';
import { describe, expect, it } from 'vitest';

// A stand-in for an SDK client: what a createClient factory gets is what it keeps.
const createClient = (init: { baseUrl: string; token: string }) => ({
  ...init,
  kind: 'test-client' as const,
});

describe.each(['http', 'msw'] as const)('useReferenceServer in %s mode', (mode) => {
  const parley = useReferenceServer({ mode, createClient });

  it('hands the test a url, a token and a client built by createClient', () => {
    expect(parley.mode).toBe(mode);
    expect(parley.url).toMatch(mode === 'http' ? /^http:\/\/127\.0\.0\.1:\d+$/ : /^http:\/\/parley\.test$/);
    expect(parley.client).toEqual({ baseUrl: parley.url, token: 'parley-demo-token', kind: 'test-client' });
    expect(parley.client).toBe(parley.client);
  });

  it('fetch resolves paths against the server and sends the token', async () => {
    const res = await parley.fetch('/v1/sessions', { method: 'POST' });
    expect(res.status).toBe(201);
    expect(parley.server.sessionCount).toBe(1);
  });

  it('resets between tests: no session, journal entry or script is left from the test before', async () => {
    expect(parley.server.sessionCount).toBe(0);
    expect(parley.server.journal.size).toBe(0);
    parley.server.script([turn.text('Scripted.')]);
  });

  it('serves the control routes and honours fault headers', async () => {
    expect((await parley.fetch('/_parley/health')).status).toBe(200);
    const faulted = await parley.fetch('/v1/sessions', { headers: { [FAULT_HEADER]: 'status=503' } });
    expect(faulted.status).toBe(503);
    const journal = (await (await parley.fetch('/_parley/journal')).json()) as { entries: unknown[] };
    expect(journal.entries).toHaveLength(1);
  });

  it('sends the control token to the control routes only; a given header is kept', async () => {
    expect(parley.controlToken).toBe(parley.server.controlToken);
    expect(parley.controlToken).toMatch(/^pct_[0-9a-f]{32}$/);
    const wrong = await parley.fetch('/_parley/health', { headers: { [CONTROL_TOKEN_HEADER]: 'pct_wrong' } });
    expect(wrong.status).toBe(401);
    // A protocol request without a bearer token gets no fault: the control token was not added.
    const unauthenticated = await parley.fetch('/v1/sessions', {
      headers: { authorization: 'Bearer nobody', [FAULT_HEADER]: 'status=503' },
    });
    expect(unauthenticated.status).toBe(401);
  });
});

describe('useReferenceServer without createClient', () => {
  const parley = useReferenceServer({ mode: 'msw', baseUrl: 'http://other.test/' });

  it('explains that client needs a factory', () => {
    expect(parley.url).toBe('http://other.test');
    expect(() => parley.client).toThrow(/createClient/);
  });
});
