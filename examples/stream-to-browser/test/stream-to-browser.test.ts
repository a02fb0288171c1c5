import { DEMO_USER, type RunningServer, startServer } from '@parley/reference-server';
import { afterAll, beforeAll, expect, it } from 'vitest';
// Chromium as the repository's other browser tests launch it (Debian's /usr/bin/chromium).
import {
  describeWithChromium,
  launchChromium,
} from '../../../packages/reference-server/test/helpers/chromium.js';
import { type RunningApp, startApp } from '../src/app.js';

type Chromium = Awaited<ReturnType<typeof launchChromium>>;

// The page records the answer's text at every change, so the test sees it grow.
const RECORD_RENDERS = `(() => {
  window.renders = [];
  new MutationObserver(() => {
    const answer = [...document.querySelectorAll('#log p.assistant')].at(-1);
    if (answer) window.renders.push(answer.textContent);
  }).observe(document.querySelector('#log'), { childList: true, subtree: true, characterData: true });
})()`;

// Runs where Chromium is installed; skipped with a note elsewhere (CI requires it).
describeWithChromium('a reply relayed by a Node route to a page that reads it with the SDK', () => {
  let parley: RunningServer;
  let app: RunningApp;
  let chromium: Chromium;

  beforeAll(async () => {
    parley = await startServer({ port: 0 });
    app = await startApp({ parleyBaseUrl: parley.url, parleyToken: DEMO_USER.token });
    chromium = await launchChromium();
  }, 60_000);

  afterAll(async () => {
    await chromium?.close();
    await app?.close();
    await parley?.close();
  });

  async function openPage() {
    const page = chromium.context.pages()[0] ?? (await chromium.context.newPage());
    await page.goto(app.url);
    await page.evaluate(RECORD_RENDERS);
    return page;
  }

  it('renders the text as it arrives, then a mid-stream fault as the typed StreamError', async () => {
    const page = await openPage();
    const answer = 'Streams travel from the service to the route to the page.';
    // The stand-in model waits 20 ms of the server's clock between two words.
    await page.fill('#content', `/delay 20\n/say ${answer}`);
    await page.click('#send');
    await page.waitForFunction(
      (text) => document.querySelector('#log p.assistant:last-of-type')?.textContent === text,
      answer,
    );
    const renders = (await page.evaluate('window.renders')) as string[];
    const distinct = [...new Set(renders)].filter((text) => text !== '');
    // Several renders (words that arrive together render once), each a longer prefix of the answer.
    expect(distinct.length).toBeGreaterThanOrEqual(3);
    expect(distinct.at(-1)).toBe(answer);
    expect(
      distinct.every(
        (text, i) => answer.startsWith(text) && (i === 0 || text.startsWith(distinct[i - 1] ?? '')),
      ),
    ).toBe(true);
    expect(await page.textContent('#error')).toBe('');

    // The next streamed request of the route is cut after 7 events: the user message (4), the
    // assistant's messageStart and two words.
    parley.server.faults.next({ match: { path: '/v1/messages/*/stream' }, cutAfterEvents: 7 });
    await page.fill('#content', '/say This answer will not arrive whole.');
    await page.click('#send');
    await page.waitForFunction(() => document.querySelector('#error')?.textContent !== '');
    const error = await page.$eval('#error', (el) => ({
      kind: (el as HTMLElement).dataset.kind,
      streamError: (el as HTMLElement).dataset.streamError,
      text: el.textContent,
    }));
    expect(error).toMatchObject({ kind: 'StreamError', streamError: 'true' });
    expect(error.text).toContain('The stream ended before the body was complete');
    expect(await page.textContent('#log p.assistant:last-of-type')).toBe('This answer ');
  });

  it('a session the service does not know reaches the page as a NotFoundError', async () => {
    const page = await openPage();
    const result = await page.evaluate(`(async () => {
      const response = await fetch('/api/chat', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ sessionId: 'sess_missing', content: 'Hi' }),
      });
      return { status: response.status, text: await response.text() };
    })()`);
    expect(result).toMatchObject({ status: 200 });
    const body = JSON.parse((result as { text: string }).text) as { events: Array<Record<string, unknown>> };
    expect(body.events).toEqual([
      {
        parleyError: expect.objectContaining({
          name: 'NotFoundError',
          status: 404,
          code: 'session_not_found',
        }),
      },
    ]);
  });
});
