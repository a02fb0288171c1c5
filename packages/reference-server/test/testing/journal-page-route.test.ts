import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { BASE_URL, harness } from '../helpers/api.js';

const sha256 = (text: string) => createHash('sha256').update(text).digest('base64');
const inline = (html: string, tag: 'script' | 'style') =>
  [...html.matchAll(new RegExp(`<${tag}>([\\s\\S]*?)</${tag}>`, 'g'))].map((m) => m[1] ?? '');

async function getPage(server: { fetch: (request: Request) => Promise<Response> }, path: string) {
  const response = await server.fetch(new Request(`${BASE_URL}${path}`));
  return { response, html: await response.text() };
}

function preflight(path: string): Request {
  return new Request(`${BASE_URL}${path}`, {
    method: 'OPTIONS',
    headers: {
      origin: 'http://localhost:5173',
      'access-control-request-method': 'POST',
      'access-control-request-headers': 'authorization, content-type',
    },
  });
}

describe('the journal page route /_parley/ui', () => {
  it('answers with and without a trailing slash, the same static page', async () => {
    const { server } = harness({ control: true });
    const bare = await getPage(server, '/_parley/ui');
    const slash = await getPage(server, '/_parley/ui/');
    expect(bare.response.status).toBe(200);
    expect(slash.response.status).toBe(200);
    expect(bare.response.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(slash.html).toBe(bare.html);
  });

  it('is a shell that holds no data: sessions and requests come from the control routes', async () => {
    const h = harness({ control: true });
    const sessionId = await h.createSession();
    const { html } = await getPage(h.server, '/_parley/ui');
    expect(html).not.toContain(sessionId);
    expect(html).not.toContain('parley-demo-token');
  });

  it('sends a Content-Security-Policy that allows only its own inline script and style, by hash', async () => {
    const { server } = harness({ control: true });
    const { response, html } = await getPage(server, '/_parley/ui/');
    const policy = response.headers.get('content-security-policy') ?? '';
    const directives = new Map(
      policy.split(';').map((part) => {
        const [name = '', ...values] = part.trim().split(/\s+/);
        return [name, values] as const;
      }),
    );
    const scripts = inline(html, 'script');
    const styles = inline(html, 'style');
    expect(scripts).toHaveLength(1);
    expect(styles).toHaveLength(1);
    expect(directives.get('default-src')).toEqual(["'none'"]);
    expect(directives.get('script-src')).toEqual([`'sha256-${sha256(scripts[0] ?? '')}'`]);
    expect(directives.get('style-src')).toEqual([`'sha256-${sha256(styles[0] ?? '')}'`]);
    expect(directives.get('connect-src')).toEqual(["'self'"]);
    expect(directives.get('frame-ancestors')).toEqual(["'none'"]);
    expect(policy).not.toContain('unsafe');
    // No inline event handlers in the markup: the policy would block them.
    expect(html).not.toMatch(/\son[a-z]+=/i);
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(response.headers.get('referrer-policy')).toBe('no-referrer');
  });
});

describe('CORS preflight requests and the journal', () => {
  it('a preflight is not a journal entry; the request it clears is', async () => {
    const h = harness({ control: true });
    const response = await h.server.fetch(preflight('/v1/sessions'));
    expect(response.status).toBe(204);
    expect(h.server.journal.size).toBe(0);
    await h.createSession();
    expect(h.server.journal.entries().map((e) => `${e.method} ${e.path}`)).toEqual(['POST /v1/sessions']);
  });

  it('a preflight does not take the one-shot fault queued for its path', async () => {
    const h = harness();
    h.server.faults.next({ status: 503, match: { path: '/v1/sessions' } });
    expect((await h.server.fetch(preflight('/v1/sessions'))).status).toBe(204);
    const res = await h.call('POST', '/v1/sessions');
    expect(res.status).toBe(503);
    expect(h.server.journal.entries().map((e) => `${e.method} ${e.response?.status}`)).toEqual(['POST 503']);
  });
});
