import { fileURLToPath } from 'node:url';
import { startServer } from '@parley/reference-server';
import { describe, expect } from 'vitest';
import { bundleForBrowser, itWithChromium, launchChromium, servePage } from '../helpers/browser.js';

const SDK_ENTRY = fileURLToPath(new URL('../../src/index.ts', import.meta.url));

// Runs where Debian's chromium is installed (CI installs it when it can); skips elsewhere.
describe('recover in a browser', () => {
  itWithChromium(
    'a streamed reply recovers from a model error and a 503 on its resume, with the recovered events on the page',
    async () => {
      const bundle = await bundleForBrowser({ file: SDK_ENTRY });
      const api = await startServer({ port: 0 });
      const app = await servePage({ '/sdk.js': bundle });
      const chromium = await launchChromium();
      try {
        // The send streams and fails (the model, once); the recovery's first resume is refused
        // with a 503; its second gets the answer. (A fault of no effect keeps the send's place.)
        const stream = { method: 'POST', path: '/v1/messages/*/stream' } as const;
        api.server.faults.next({ match: stream, latencyMs: 0 });
        api.server.faults.next({ match: stream, status: 503 });
        const page = chromium.context.pages()[0] ?? (await chromium.context.newPage());
        await page.goto(app.url);
        // A string, not a function: vitest rewrites `import()` inside test code, the page must not see that.
        const script = `(async () => {
          const { Parley } = await import(${JSON.stringify(`${app.url}/sdk.js`)});
          const client = new Parley({ baseUrl: ${JSON.stringify(api.url)}, token: 'parley-demo-token' });
          const { sessionId } = await client.sessions.create();
          const attempts = [];
          const stream = client.messages.stream(
            sessionId,
            { content: '/say Back in the browser.\\n/fail-once Overloaded' },
            { recover: { backoff: () => 0 } },
          );
          stream.on('recovered', (attempt) => attempts.push([attempt.attempt, attempt.action, attempt.error.name]));
          const text = await stream.finalText();
          const users = (await client.messages.export(sessionId)).filter((m) => m.role === 'user').length;
          return { text, attempts, users };
        })()`;
        const result = (await page.evaluate(script)) as { text: string; attempts: unknown[]; users: number };
        expect(result.text).toBe('Back in the browser.');
        expect(result.attempts).toEqual([
          [1, 'resume', 'StreamError'],
          [2, 'resume', 'InternalServerError'],
        ]);
        expect(result.users).toBe(1);
      } finally {
        await chromium.close();
        await api.close();
        await app.close();
      }
    },
  );
});
