import { CONTROL_TOKEN_HEADER, createReferenceServer, startServer } from '@parley/reference-server';
import { describe, expect, it } from 'vitest';
import { expectError, harness } from '../helpers/api.js';
import { rawRequest } from './raw-request.js';

const SECRET = 'My card number is 4111 1111 1111 1111';

describe('the control routes need the control token', () => {
  it('a server with control makes a random token per server: pct_ and 32 hex digits', () => {
    const a = createReferenceServer({ control: true });
    const b = createReferenceServer({ control: true });
    expect(a.controlToken).toMatch(/^pct_[0-9a-f]{32}$/);
    expect(b.controlToken).toMatch(/^pct_[0-9a-f]{32}$/);
    expect(a.controlToken).not.toBe(b.controlToken);
    expect(createReferenceServer().controlToken).toBeUndefined();
    expect(createReferenceServer({ control: true, controlToken: 'my-control-token' }).controlToken).toBe(
      'my-control-token',
    );
    expect(() => createReferenceServer({ control: true, controlToken: 'two words in a token' })).toThrow(
      'The control token must be visible ASCII characters, no spaces',
    );
    expect(() => createReferenceServer({ control: true, controlToken: '' })).toThrow(TypeError);
  });

  it('a control token shorter than 16 characters is refused: a short one is guessed too easily', () => {
    expect(() => createReferenceServer({ control: true, controlToken: 'a' })).toThrow(
      new TypeError(
        'The control token must be at least 16 characters (got 1): a short one is guessed too easily; ' +
          'leave it out for a random one',
      ),
    );
    expect(() => createReferenceServer({ control: true, controlToken: 'x'.repeat(15) })).toThrow(TypeError);
    expect(createReferenceServer({ control: true, controlToken: 'x'.repeat(16) }).controlToken).toHaveLength(
      16,
    );
  });

  it('GET /_parley/sessions without the token is 401 control_token_required and shows no conversation', async () => {
    const h = harness({ control: true });
    const sessionId = await h.createSession();
    await h.send(sessionId, SECRET);
    for (const path of ['/_parley/sessions', '/_parley/journal', '/_parley/health', '/_parley/faults']) {
      const res = await h.call('GET', path, undefined, { controlToken: null });
      expectError(res, 401, 'control_token_required');
      expect(res.text).not.toContain('4111');
    }
    // Not even with a user's bearer token: the control plane is not the protocol.
    expectError(
      await h.call('GET', '/_parley/sessions', undefined, { controlToken: null }),
      401,
      'control_token_required',
    );
    const ok = await h.call('GET', '/_parley/sessions');
    expect(ok.status).toBe(200);
    expect(ok.text).toContain('4111');
  });

  it('a percent-encoded control path (/%5Fparley/...) is a control route too: it needs the token', async () => {
    const h = harness({ control: true });
    const sessionId = await h.createSession();
    await h.send(sessionId, SECRET);
    const res = await h.call('GET', '/%5Fparley/sessions', undefined, { controlToken: null });
    expectError(res, 401, 'control_token_required');
    expect(res.text).not.toContain('4111');
    const ok = await h.call('GET', '/%5Fparley/sessions', undefined, {
      headers: { [CONTROL_TOKEN_HEADER]: h.server.controlToken as string },
    });
    expect(ok.status).toBe(200);
    expect(ok.text).toContain('4111');
  });

  it('a wrong token is 401 invalid_control_token, one of the same length too', async () => {
    const h = harness({ control: true, controlToken: 'pct_right_0123456' });
    expectError(
      await h.call('GET', '/_parley/journal', undefined, { controlToken: 'pct_wrong_0123456' }),
      401,
      'invalid_control_token',
    );
    expectError(
      await h.call('POST', '/_parley/reset', undefined, { controlToken: 'x' }),
      401,
      'invalid_control_token',
    );
    expect(
      (await h.call('GET', '/_parley/journal', undefined, { controlToken: 'pct_right_0123456' })).status,
    ).toBe(200);
  });

  it('a cross-site simple request (POST /_parley/faults as text/plain, no token) queues no fault', async () => {
    const h = harness({ control: true });
    const body = JSON.stringify({ status: 503, times: 1000 });
    // What a page on another site can send without a preflight: no custom header, text/plain.
    const simple = await h.server.fetch(
      new Request('http://parley.test/_parley/faults', {
        method: 'POST',
        headers: { 'content-type': 'text/plain', origin: 'https://attacker.example' },
        body,
      }),
    );
    expect(simple.status).toBe(401);
    expect(h.server.faults.pending).toEqual([]);
    // Even with the token, a body that is not JSON is refused before any state change.
    for (const headers of [
      { 'content-type': 'text/plain' },
      { 'content-type': 'application/x-www-form-urlencoded' },
    ]) {
      expectError(
        await h.call('POST', '/_parley/faults', undefined, { headers, rawBody: body }),
        415,
        'unsupported_media_type',
      );
    }
    expectError(
      await h.call('POST', '/_parley/faults', undefined, { rawBody: new Blob([body]) }),
      415,
      'unsupported_media_type',
    );
    expectError(
      await h.call('PUT', '/_parley/script', undefined, {
        headers: { 'content-type': 'text/plain' },
        rawBody: '{"turns":[]}',
      }),
      415,
      'unsupported_media_type',
    );
    expect(h.server.faults.pending).toEqual([]);
    expect((await h.call('GET', '/v1/sessions')).status).toBe(200);
  });

  it('intended use: JSON bodies with the token work, body-less POST /_parley/reset too', async () => {
    const h = harness({ control: true });
    const posted = await h.call(
      'POST',
      '/_parley/faults',
      { status: 503 },
      {
        headers: { 'content-type': 'application/json; charset=utf-8' },
      },
    );
    expect(posted.status).toBe(201);
    expect(h.server.faults.pending).toHaveLength(1);
    expect((await h.call('POST', '/_parley/reset')).body).toEqual({ reset: 'all' });
    expect(h.server.faults.pending).toEqual([]);
  });

  it('the journal page shell (GET /_parley/ui and /_parley/ui/) needs no token and holds no data', async () => {
    const h = harness({ control: true });
    const sessionId = await h.createSession();
    await h.send(sessionId, SECRET);
    for (const path of ['/_parley/ui', '/_parley/ui/']) {
      const res = await h.server.fetch(new Request(`http://parley.test${path}`));
      expect(res.status, path).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/text\/html/);
      const html = await res.text();
      expect(html).not.toContain('4111');
      expect(html).not.toContain(h.server.controlToken);
    }
    // Only GET: the shell's path takes nothing else without the token.
    expectError(
      await h.call('POST', '/_parley/ui/', undefined, { controlToken: null }),
      401,
      'control_token_required',
    );
  });

  it('a page on another origin holding the token reaches the control routes through CORS', async () => {
    const server = createReferenceServer({ control: true });
    const origin = 'http://localhost:5173';
    const preflight = await server.fetch(
      new Request('http://parley.test/_parley/faults', {
        method: 'OPTIONS',
        headers: {
          origin,
          'access-control-request-method': 'POST',
          'access-control-request-headers': `content-type,${CONTROL_TOKEN_HEADER}`,
        },
      }),
    );
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-origin')).toBe('*');
    expect(preflight.headers.get('access-control-allow-headers')).toBe(
      `content-type, ${CONTROL_TOKEN_HEADER}`,
    );
    expect(server.faults.pending).toEqual([]);
    const posted = await server.fetch(
      new Request('http://parley.test/_parley/faults', {
        method: 'POST',
        headers: {
          origin,
          'content-type': 'application/json',
          [CONTROL_TOKEN_HEADER]: server.controlToken ?? '',
        },
        body: JSON.stringify({ status: 503 }),
      }),
    );
    expect(posted.status).toBe(201);
    expect(posted.headers.get('access-control-allow-origin')).toBe('*');
  });
});

describe('the host check over a socket (DNS rebinding)', () => {
  it('Host: attacker.example is 403 host_not_allowed on the control routes and the protocol', async () => {
    const running = await startServer({ port: 0, control: true });
    try {
      const token = running.server.controlToken ?? '';
      for (const path of ['/_parley/sessions', '/_parley/ui', '/v1/sessions', '/openapi.json']) {
        const res = await rawRequest(running.port, path, {
          host: `attacker.example:${running.port}`,
          [CONTROL_TOKEN_HEADER]: token,
          authorization: 'Bearer parley-demo-token',
        });
        expect(res.status, path).toBe(403);
        expect(JSON.parse(res.body).error.code).toBe('host_not_allowed');
        expect(res.headers['x-content-type-options']).toBe('nosniff');
      }
      // An absolute request target names the host too: both it and the Host header must pass.
      const absolute = await rawRequest(running.port, 'http://attacker.example/_parley/sessions', {
        host: `127.0.0.1:${running.port}`,
        [CONTROL_TOKEN_HEADER]: token,
      });
      expect(absolute.status).toBe(403);
      // The message names the host refused (the target's), not the allowed Host header.
      expect(JSON.parse(absolute.body).error.message).toMatch(/^The host "attacker\.example" is not allowed/);
      expect(running.server.journal.size).toBe(0);
    } finally {
      await running.close();
    }
  });

  it('loopback names and IP addresses pass; other names only when allowed', async () => {
    const running = await startServer({
      port: 0,
      control: true,
      allowedHosts: ['parley.internal', '.dev.test'],
    });
    try {
      const headers = { [CONTROL_TOKEN_HEADER]: running.server.controlToken ?? '' };
      const statusFor = async (host: string) =>
        (await rawRequest(running.port, '/_parley/health', { ...headers, host })).status;
      for (const host of [
        `localhost:${running.port}`,
        'LOCALHOST',
        `app.localhost:${running.port}`,
        `127.0.0.1:${running.port}`,
        `[::1]:${running.port}`,
        '192.168.1.20:4010',
        'parley.internal',
        'api.dev.test',
        'dev.test',
      ]) {
        expect(await statusFor(host), host).toBe(200);
      }
      for (const host of [
        'attacker.example',
        'localhost.attacker.example',
        'parley.internal.evil',
        'evil-dev.test',
      ]) {
        expect(await statusFor(host), host).toBe(403);
      }
    } finally {
      await running.close();
    }
  });

  it('allowedHosts: true (or "*") turns the check off; in process it is off by default', async () => {
    const running = await startServer({ port: 0, allowedHosts: ['*'] });
    try {
      const res = await rawRequest(running.port, '/v1/sessions', {
        host: 'anything.example',
        authorization: 'Bearer parley-demo-token',
      });
      expect(res.status).toBe(200);
    } finally {
      await running.close();
    }
    // Fetch injection and msw have no socket to rebind: their base URL may be any name.
    const h = harness({ control: true });
    expect((await h.call('GET', '/_parley/health')).status).toBe(200);
    const strict = createReferenceServer({ allowedHosts: [] });
    const refused = await strict.fetch(
      new Request('http://parley.test/v1/sessions', {
        headers: { authorization: 'Bearer parley-demo-token' },
      }),
    );
    expectError(
      { status: refused.status, headers: refused.headers, body: await refused.json(), text: '' },
      403,
      'host_not_allowed',
    );
  });

  it('an allowed host that is not a host name is a TypeError', () => {
    expect(() => createReferenceServer({ allowedHosts: ['http://x.test'] })).toThrow(TypeError);
  });
});
