import { ManualClock, startServer } from '@parley/reference-server';
import type { Page } from 'playwright-core';
import { describe, expect } from 'vitest';
import { caller } from '../helpers/api.js';
import { itWithChromium, launchChromium } from '../helpers/chromium.js';
import { screenshot } from '../helpers/screenshots.js';

const TOKEN = 'secret-token-123';
const LONG_TEXT =
  'The refund policy allows returns within 30 days of delivery. Items must be unused and in their ' +
  'original packaging. Refunds go back to the original payment method within five business days ' +
  'of the return being received. Shipping costs are refunded only when the item arrived damaged ' +
  'or was not what was ordered; otherwise the customer pays the return shipping. End of answer.';
const HOSTILE = '<img src=x onerror="window.__pwned=1"><script>window.__pwned=2</script>';

/** Reads the page's journal rows: each row's cells by class, for assertions. */
function rows(page: Page) {
  return page.locator('#journal tbody tr').evaluateAll((trs) =>
    trs.map((tr) => ({
      className: tr.className,
      seq: tr.querySelector('.seq')?.textContent,
      time: tr.querySelector('.time')?.textContent,
      duration: tr.querySelector('.duration')?.textContent,
      request: tr.querySelector('.request')?.textContent,
      session: tr.querySelector('.session-id')?.getAttribute('title'),
      status: tr.querySelector('.status')?.textContent,
      reply: tr.querySelector('.reply')?.textContent,
    })),
  );
}

// A real browser renders /_parley/ui. CI machines without Debian's chromium skip these tests.
describe('the journal page /_parley/ui', () => {
  itWithChromium('shows sessions, messages, tool-call states and the journal', async () => {
    const running = await startServer({ port: 0, control: true });
    const browser = await launchChromium();
    try {
      const call = caller(fetch, running.url);
      const { body } = await call('POST', '/v1/sessions');
      await call('POST', `/v1/messages/${body.sessionId}`, { content: '/tool get_weather {"city":"Paris"}' });
      await call('GET', '/v1/sessions', undefined, { headers: { 'x-parley-fault': 'status=503' } });

      const page = browser.context.pages()[0] ?? (await browser.context.newPage());
      // The control token travels in the URL's fragment, as the CLI prints it.
      await page.goto(`${running.url}/_parley/ui#token=${running.server.controlToken}`);
      await page.locator('body[data-loaded="true"]').waitFor();

      const session = page.locator(`[data-session-id="${body.sessionId}"]`);
      await expect(session.locator('.message').count()).resolves.toBe(2);
      expect(await session.locator('.message').first().textContent()).toContain('user: /tool get_weather');
      expect(await session.locator('.tool-call').textContent()).toMatch(/get_weather tooluse_\w+: PENDING/);

      // Only the API's rows: a browser's own /favicon.ico request would be journaled too.
      const apiRows = page.locator('#journal tbody tr', { hasText: '/v1/' });
      await expect(apiRows.count()).resolves.toBe(3);
      expect(await apiRows.first().textContent()).toContain('503');
      expect(await apiRows.first().textContent()).toContain('injected_fault');

      // Refresh picks up what happened since.
      await call('POST', '/v1/sessions');
      await page.locator('#refresh').click();
      await expect.poll(() => apiRows.count()).toBe(4);
      await expect(page.locator('.session').count()).resolves.toBe(2);
    } finally {
      await browser.close();
      await running.close();
    }
  });

  itWithChromium("with ?testId=, the page shows that test's sessions and journal only", async () => {
    const running = await startServer({ port: 0, control: true });
    const browser = await launchChromium();
    try {
      const call = caller(fetch, running.url);
      const scoped = { headers: { 'x-parley-test-id': 'checkout > pays' } };
      const mine = await call('POST', '/v1/sessions', undefined, scoped);
      await call('POST', `/v1/messages/${mine.body.sessionId}`, { content: 'Hello' }, scoped);
      const other = await call('POST', '/v1/sessions');
      await call('POST', `/v1/messages/${other.body.sessionId}`, { content: 'Someone else' });

      const page = browser.context.pages()[0] ?? (await browser.context.newPage());
      const testId = encodeURIComponent('checkout > pays');
      await page.goto(`${running.url}/_parley/ui?testId=${testId}#token=${running.server.controlToken}`);
      await page.locator('body[data-loaded="true"]').waitFor();

      await expect(page.locator('.session').count()).resolves.toBe(1);
      await expect(page.locator(`[data-session-id="${mine.body.sessionId}"]`).count()).resolves.toBe(1);
      const apiRows = page.locator('#journal tbody tr', { hasText: '/v1/' });
      await expect(apiRows.count()).resolves.toBe(2);
      expect(await page.locator('#journal').textContent()).not.toContain(other.body.sessionId);
    } finally {
      await browser.close();
      await running.close();
    }
  });

  itWithChromium(
    'for debugging: request time and duration, status colours, filters by session and status, a detail view',
    async () => {
      const clock = new ManualClock(Date.UTC(2026, 0, 2, 3, 4, 5, 678));
      const running = await startServer({ port: 0, control: true, controlToken: TOKEN, clock });
      const browser = await launchChromium();
      try {
        const call = caller(fetch, running.url);
        const a = (await call('POST', '/v1/sessions')).body.sessionId as string;
        await call('POST', `/v1/messages/${a}`, { content: `/say ${LONG_TEXT}` });
        await call('POST', `/v1/messages/${a}`, { content: HOSTILE });
        const b = (await call('POST', '/v1/sessions')).body.sessionId as string;
        await call('POST', `/v1/messages/${b}`, { content: '/tool get_weather {"city":"Paris"}' });
        await call('GET', '/v1/sessions', undefined, { headers: { 'x-parley-fault': 'status=503' } });
        await call('GET', '/v1/sessions/sess_missing');
        const slow = call('GET', '/v1/sessions', undefined, { headers: { 'x-parley-fault': 'latency=250' } });
        await expect.poll(() => clock.pendingSleeps).toBe(1);
        await clock.advance(250);
        await slow;

        const page = browser.context.pages()[0] ?? (await browser.context.newPage());
        await page.setViewportSize({ width: 1400, height: 900 });
        const consoleMessages: string[] = [];
        page.on('console', (message) => consoleMessages.push(message.text()));
        const dataRequests: { path: string; token: string | undefined }[] = [];
        page.on('request', (request) => {
          const path = new URL(request.url()).pathname;
          if (path.startsWith('/_parley/') && !path.startsWith('/_parley/ui')) {
            dataRequests.push({ path, token: request.headers()['x-parley-control-token'] });
          }
        });
        // The address the CLI prints: the trailing slash and the token in the hash.
        await page.goto(`${running.url}/_parley/ui/#token=${TOKEN}`);
        await page.locator('body[data-loaded="true"]').waitFor();

        // The token left the address bar for sessionStorage, and went with every data fetch.
        expect(page.url()).toBe(`${running.url}/_parley/ui/`);
        expect(await page.evaluate(() => sessionStorage.getItem('parley-control-token'))).toBe(TOKEN);
        expect(dataRequests.map((r) => r.path).sort()).toEqual(['/_parley/journal', '/_parley/sessions']);
        expect(dataRequests.every((r) => r.token === TOKEN)).toBe(true);

        const all = await rows(page);
        const bySeq = (seq: number) => all.find((row) => row.seq === String(seq));
        expect(all).toHaveLength(8);
        expect(bySeq(1)).toMatchObject({ time: '03:04:05.678', duration: '0 ms', status: '201', session: a });
        expect(bySeq(1)?.className).toContain('status-2xx');
        expect(bySeq(2)?.reply).toBe(`${LONG_TEXT} [end_turn]`);
        expect(bySeq(6)).toMatchObject({ status: '503', reply: expect.stringContaining('injected_fault') });
        expect(bySeq(6)?.className).toContain('status-5xx');
        expect(bySeq(7)).toMatchObject({ status: '404', reply: expect.stringContaining('not_found') });
        expect(bySeq(7)?.className).toContain('status-4xx');
        expect(bySeq(8)).toMatchObject({ time: '03:04:05.678', duration: '250 ms', status: '200' });
        expect(await page.locator('tr[data-seq="8"] td.fault').textContent()).toBe('latencyMs=250');
        const colour = (seq: number) =>
          page.locator(`tr[data-seq="${seq}"] td.status`).evaluate((td) => getComputedStyle(td).color);
        const colours = new Set([await colour(1), await colour(6), await colour(7)]);
        expect(colours.size).toBe(3);
        // The reply column takes the room left, not a few characters per line.
        const replyWidth = await page.locator('tr[data-seq="2"] .reply').evaluate((d) => d.clientWidth);
        expect(replyWidth).toBeGreaterThan(300);
        await screenshot(page, 'journal-page', '1-journal');

        // Everything shown is text: the hostile message rendered, nothing of it ran or became markup.
        expect(bySeq(3)?.request).toBe(`POST/v1/messages/${a}`);
        expect(bySeq(3)?.reply).toContain(HOSTILE);
        expect(
          await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned),
        ).toBeUndefined();
        expect(await page.locator('img').count()).toBe(0);
        expect(await page.evaluate(() => document.scripts.length)).toBe(1);

        // Filter by session: its requests and its snapshot only.
        await page.locator('#filter-session').selectOption(a);
        expect((await rows(page)).map((row) => row.seq)).toEqual(['3', '2', '1']);
        await expect(page.locator('.session').count()).resolves.toBe(1);
        await expect(page.locator(`.session[data-session-id="${a}"]`).count()).resolves.toBe(1);
        // Filter by status: errors of every session.
        await page.locator('#filter-session').selectOption('');
        await page.locator('#filter-status').selectOption('errors');
        expect((await rows(page)).map((row) => row.status)).toEqual(['404', '503']);
        expect(await page.locator('#count').textContent()).toBe('2 of 8 requests');
        await screenshot(page, 'journal-page', '2-errors-only');
        await page.locator('#filter-status').selectOption('');

        // The detail view: the whole request and response bodies.
        await page.locator('tr[data-seq="2"]').click();
        const dialog = page.locator('dialog#detail');
        await dialog.waitFor({ state: 'visible' });
        expect(await page.locator('#detail-title').textContent()).toBe(`#2 POST /v1/messages/${a}`);
        expect(await page.locator('#detail-request').textContent()).toBe(
          JSON.stringify({ content: `/say ${LONG_TEXT}` }, null, 2),
        );
        const response = (await page.locator('#detail-response').textContent()) ?? '';
        expect(response.startsWith('HTTP 200\n\n')).toBe(true);
        const replyBody = running.server.journal.entries()[1]?.response?.body;
        expect(JSON.parse(response.slice('HTTP 200\n\n'.length))).toEqual(replyBody);
        expect(await page.locator('#detail-facts').textContent()).toContain('2026-01-02T03:04:05.678Z');
        await screenshot(page, 'journal-page', '3-detail', { fullPage: false });
        await page.locator('#detail-close').click();
        await dialog.waitFor({ state: 'hidden' });

        // The Content-Security-Policy holds: the page ran without a violation, an injected inline
        // script does not run.
        expect(consoleMessages.filter((m) => m.includes('Content Security Policy'))).toEqual([]);
        await page.evaluate(() => {
          const script = document.createElement('script');
          script.textContent = 'window.__inline = 1';
          document.body.append(script);
        });
        expect(
          await page.evaluate(() => (window as unknown as { __inline?: number }).__inline),
        ).toBeUndefined();
        await expect
          .poll(() => consoleMessages.filter((m) => m.includes('Content Security Policy')).length)
          .toBeGreaterThan(0);

        // A reload without the hash keeps the token (sessionStorage).
        dataRequests.length = 0;
        await page.reload();
        await page.locator('body[data-loaded="true"]').waitFor();
        expect(dataRequests.length).toBeGreaterThanOrEqual(2);
        expect(dataRequests.every((r) => r.token === TOKEN)).toBe(true);
      } finally {
        await browser.close();
        await running.close();
      }
    },
    60_000,
  );

  itWithChromium('says what to do when the control routes refuse its token', async () => {
    const running = await startServer({ port: 0, control: true, controlToken: TOKEN });
    const browser = await launchChromium();
    try {
      const page = browser.context.pages()[0] ?? (await browser.context.newPage());
      await page.goto(`${running.url}/_parley/ui/#token=not-the-token`);
      await page.locator('body[data-error="true"]').waitFor();
      expect(await page.locator('#error').textContent()).toBe(
        'Could not load: The control routes refused this page (HTTP 401). ' +
          'Open it with the address the server printed, the one ending in #token=...',
      );
    } finally {
      await browser.close();
      await running.close();
    }
  });
});
