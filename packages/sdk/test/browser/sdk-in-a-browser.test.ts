import { fileURLToPath } from 'node:url';
import { startServer } from '@parley/reference-server';
import { describe, expect } from 'vitest';
import { bundleForBrowser, itWithChromium, launchChromium, servePage } from '../helpers/browser.js';

const SDK_ENTRY = fileURLToPath(new URL('../../src/index.ts', import.meta.url));

// Runs where Debian's chromium is installed (CI installs it when it can); skips elsewhere.
describe('the SDK in a browser', () => {
  itWithChromium(
    'bundles without Node built-ins and streams a reply from another origin over fetch',
    async () => {
      const bundle = await bundleForBrowser({ file: SDK_ENTRY });
      const api = await startServer({ port: 0 });
      const app = await servePage({ '/sdk.js': bundle });
      const chromium = await launchChromium();
      const browser = chromium.context;
      try {
        const page = browser.pages()[0] ?? (await browser.newPage());
        await page.goto(app.url);
        // A string, not a function: vitest rewrites `import()` inside test code, the page must not see that.
        const script = `(async () => {
          const { Parley, NotFoundError } = await import(${JSON.stringify(`${app.url}/sdk.js`)});
          const client = new Parley({ baseUrl: ${JSON.stringify(api.url)}, token: 'parley-demo-token' });
          const { sessionId } = await client.sessions.create();
          const stream = client.messages.stream(sessionId, { content: '/say Hello from the browser.' });
          const deltas = [];
          stream.on('text', (delta) => deltas.push(delta));
          const text = await stream.finalText();
          const missing = await client.sessions.delete('sess_missing').catch((e) => e);
          return { text, deltas: deltas.length, notFound: missing instanceof NotFoundError, requestId: missing.requestId };
        })()`;
        const result = (await page.evaluate(script)) as {
          text: string;
          deltas: number;
          notFound: boolean;
          requestId: string;
        };
        expect(result.text).toBe('Hello from the browser.');
        expect(result.deltas).toBeGreaterThan(1);
        expect(result.notFound).toBe(true);
        expect(result.requestId).toMatch(/^req_/);
      } finally {
        await chromium.close();
        await api.close();
        await app.close();
      }
    },
  );
});
