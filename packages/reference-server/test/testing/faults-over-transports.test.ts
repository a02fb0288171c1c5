import { FAULT_HEADER } from '@parley/reference-server';
import { afterEach, describe, expect, it } from 'vitest';
import { startWith, TRANSPORTS } from '../helpers/transports.js';
import { readAll } from './helpers.js';

// The same faults over a real socket and under msw: a dropped connection is a destroyed socket in
// the first and a network error (`Response.error()`) or an erroring body in the second.
describe.each(TRANSPORTS)('faults over $name', (transport) => {
  let started: Awaited<ReturnType<typeof startWith>> | undefined;
  afterEach(async () => {
    await started?.close();
    started = undefined;
  });

  const streamWithFault = async (fault: string, content = '/say one two three') => {
    started = await startWith(transport);
    const sessionId = await started.createSession();
    const response = await fetch(`${started.baseUrl}/v1/messages/${sessionId}/stream`, {
      method: 'POST',
      headers: { authorization: 'Bearer parley-demo-token', [FAULT_HEADER]: fault },
      body: JSON.stringify({ content }),
    });
    return { response, sessionId, started };
  };

  it('drop makes fetch reject with a network error', async () => {
    started = await startWith(transport);
    const error = await fetch(`${started.baseUrl}/v1/sessions`, {
      method: 'POST',
      headers: { authorization: 'Bearer parley-demo-token', [FAULT_HEADER]: 'drop' },
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TypeError);
    expect(started.server.sessionCount).toBe(0);
    // The server keeps serving other requests.
    expect((await started.call('GET', '/v1/sessions')).status).toBe(200);
  });

  it('drop-after=N delivers N events, then reading the body fails', async () => {
    const { response } = await streamWithFault('drop-after=6');
    expect(response.status).toBe(200);
    const { text, error } = await readAll(response);
    expect(error).toBeInstanceOf(Error);
    const events = text
      .split('\n')
      .slice(1)
      .filter((line) => line.startsWith('{'));
    expect(events).toHaveLength(6);
  });

  it('cut-after=N ends the body cleanly after N events, its JSON left open', async () => {
    const { response } = await streamWithFault('cut-after=2');
    const { text, error } = await readAll(response);
    expect(error).toBeUndefined();
    expect(text.trim().split('\n')).toHaveLength(3);
    expect(() => JSON.parse(text)).toThrow(SyntaxError);
  });

  it('status=503 answers before the stream starts', async () => {
    const { response } = await streamWithFault('status=503,retry-after=1');
    expect(response.status).toBe(503);
    expect(response.headers.get('retry-after')).toBe('1');
    expect(await response.json()).toMatchObject({ error: { code: 'injected_fault' } });
  });
});
