import { fileURLToPath } from 'node:url';
import { startServer } from '@parley/reference-server';
import { describe, expect } from 'vitest';
import { bundleForBrowser, itWithChromium, launchChromium, servePage } from '../helpers/browser.js';

const SDK_ENTRY = fileURLToPath(new URL('../../src/index.ts', import.meta.url));

interface PageResult {
  sessionCreated: boolean;
  fault: { status: number; code: string; internal: boolean; connection: boolean; requestId: string };
  journal: { status: number; paths: string[] };
  withoutToken: { status: number; code: string };
}

// Runs where Debian's chromium is installed; skips elsewhere.
describe('CORS for a page on another origin (Chromium)', () => {
  itWithChromium(
    'sees a typed 503 from an injected fault, sends a custom header, and calls a control route with the token',
    async () => {
      const bundle = await bundleForBrowser({ file: SDK_ENTRY });
      const api = await startServer({ port: 0, control: true });
      const app = await servePage({ '/sdk.js': bundle });
      const token = api.server.controlToken ?? '';
      const chromium = await launchChromium();
      const browser = chromium.context;
      try {
        const page = browser.pages()[0] ?? (await browser.newPage());
        const sent: Array<Record<string, string>> = [];
        page.on('request', (request) => {
          if (request.url().startsWith(`${api.url}/v1/`)) sent.push(request.headers());
        });
        await page.goto(app.url);
        // A string, not a function: vitest rewrites `import()` inside test code.
        const script = `(async () => {
          const { Parley, InternalServerError, APIConnectionError } = await import(${JSON.stringify(`${app.url}/sdk.js`)});
          const client = new Parley({
            baseUrl: ${JSON.stringify(api.url)},
            token: 'parley-demo-token',
            maxRetries: 0,
            headers: { 'x-app-version': '1.2.3' },
          });
          const { sessionId } = await client.sessions.create();
          const error = await client.sessions
            .list({ headers: { 'x-parley-fault': 'status=503' } })
            .then(() => undefined, (e) => e);
          const journal = await fetch(${JSON.stringify(`${api.url}/_parley/journal`)}, {
            headers: { 'x-parley-control-token': ${JSON.stringify(token)} },
          });
          const entries = (await journal.json()).entries;
          const refused = await fetch(${JSON.stringify(`${api.url}/_parley/journal`)});
          return {
            sessionCreated: typeof sessionId === 'string',
            fault: {
              status: error.status,
              code: error.code,
              internal: error instanceof InternalServerError,
              connection: error instanceof APIConnectionError,
              requestId: error.requestId,
            },
            journal: { status: journal.status, paths: entries.map((e) => e.method + ' ' + e.path) },
            withoutToken: { status: refused.status, code: (await refused.json()).error.code },
          };
        })()`;
        const result = (await page.evaluate(script)) as PageResult;
        expect(result.sessionCreated).toBe(true);
        expect(result.fault).toMatchObject({
          status: 503,
          code: 'injected_fault',
          internal: true,
          connection: false,
        });
        expect(result.fault.requestId).toMatch(/^req_/);
        expect(result.journal).toEqual({ status: 200, paths: ['POST /v1/sessions', 'GET /v1/sessions'] });
        expect(result.withoutToken).toEqual({ status: 401, code: 'control_token_required' });
        // The custom header went out on the real requests (a browser sends a non-safelisted header
        // to another origin only after a preflight allowed it; Playwright does not list preflights).
        expect(sent.map((headers) => headers['x-app-version'])).toEqual(['1.2.3', '1.2.3']);
      } finally {
        await chromium.close();
        await api.close();
        await app.close();
      }
    },
    60_000,
  );
});
