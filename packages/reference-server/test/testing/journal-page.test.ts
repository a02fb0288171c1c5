import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServer } from '@parley/reference-server';
import { chromium } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { caller } from '../helpers/api.js';

const CHROMIUM = '/usr/bin/chromium';

// A real browser renders /_parley/ui. CI machines without Debian's chromium skip this test.
describe('the journal page /_parley/ui', () => {
  it.runIf(existsSync(CHROMIUM))('shows sessions, messages, tool-call states and the journal', async () => {
    const running = await startServer({ port: 0, control: true });
    const userDataDir = await mkdtemp(join(tmpdir(), 'parley-chromium-'));
    const browser = await chromium.launchPersistentContext(userDataDir, {
      executablePath: CHROMIUM,
      headless: true,
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    });
    try {
      const call = caller(fetch, running.url);
      const { body } = await call('POST', '/v1/sessions');
      await call('POST', `/v1/messages/${body.sessionId}`, { content: '/tool get_weather {"city":"Paris"}' });
      await call('GET', '/v1/sessions', undefined, { headers: { 'x-parley-fault': 'status=503' } });

      const page = browser.pages()[0] ?? (await browser.newPage());
      // The control token travels in the URL's fragment, as the CLI prints it.
      await page.goto(`${running.url}/_parley/ui#token=${running.server.controlToken}`);
      await page.locator('body[data-loaded="true"]').waitFor();

      const session = page.locator(`[data-session-id="${body.sessionId}"]`);
      await expect(session.locator('.message').count()).resolves.toBe(2);
      expect(await session.locator('.message').first().textContent()).toContain('user: /tool get_weather');
      expect(await session.locator('.tool-call').textContent()).toMatch(/get_weather tooluse_\w+: PENDING/);

      // Only the API's rows: the browser's own /favicon.ico request is journaled too.
      const rows = page.locator('#journal tbody tr', { hasText: '/v1/' });
      await expect(rows.count()).resolves.toBe(3);
      expect(await rows.first().textContent()).toContain('503');
      expect(await rows.first().textContent()).toContain('injected_fault');

      // Refresh picks up what happened since.
      await call('POST', '/v1/sessions');
      await page.locator('#refresh').click();
      await expect.poll(() => rows.count()).toBe(4);
      await expect(page.locator('.session').count()).resolves.toBe(2);
    } finally {
      await browser.close();
      await running.close();
      await rm(userDataDir, { recursive: true, force: true });
    }
  });
});
