import { describe, expect } from 'vitest';
import { itWithChromium, launchChromium } from '../helpers/chromium.js';
import { answer, send, startProxy, startScriptedUpstream } from '../proxy/helpers.js';

// A real browser renders /_parley/ui (skipped with a note where there is no Chromium).
describe('the journal page shows the checking proxy', () => {
  itWithChromium("lists a request's protocol violations in its detail view", async () => {
    const upstream = await startScriptedUpstream((_, res) => answer(res, 201, '{"id":"sess_1"}'));
    const proxy = await startProxy(upstream.url);
    await send(`${proxy.url}/v1/sessions`, 'POST', {});
    const browser = await launchChromium();
    try {
      const page = browser.context.pages()[0] ?? (await browser.context.newPage());
      await page.goto(`${proxy.url}/_parley/ui/#token=${proxy.running.server.controlToken}`);
      await page.locator('body[data-loaded="true"]').waitFor();
      await page.locator('tr[data-seq="1"]').click();
      await page.locator('dialog#detail').waitFor({ state: 'visible' });
      const facts = await page
        .locator('#detail-facts dt')
        .evaluateAll((dts) => dts.map((dt) => [dt.textContent, dt.nextElementSibling?.textContent]));
      expect(facts).toContainEqual([
        'Protocol violations',
        'response sessionId: expected string, got nothing',
      ]);
    } finally {
      await browser.close();
    }
  });
});
