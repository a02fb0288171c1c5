import { ManualClock, startServer } from '@parley/reference-server';
import { describe, expect } from 'vitest';
import { caller } from '../helpers/api.js';
import { itWithChromium, launchChromium } from '../helpers/chromium.js';
import { tick } from '../helpers/stream.js';

// A real browser renders /_parley/ui. CI machines without Debian's chromium skip these tests.
describe("the journal page shows a streamed reply's timing", () => {
  itWithChromium('the detail view lists each event with its time and marks the longest gap', async () => {
    const clock = new ManualClock(Date.UTC(2026, 0, 2, 3, 4, 5));
    const running = await startServer({ port: 0, control: true, clock });
    const browser = await launchChromium();
    try {
      const call = caller(fetch, running.url);
      const { body } = await call('POST', '/v1/sessions');
      const streamed = call(
        'POST',
        `/v1/messages/${body.sessionId}/stream`,
        { content: '/say a b' },
        {
          headers: { 'x-parley-fault': 'latency=300, delay=7' },
        },
      );
      const entry = () => running.server.journal.last({ path: '/v1/messages/*/stream' });
      // Over a socket the stream needs I/O turns between two steps of the clock.
      while (entry()?.response?.complete !== true) {
        await clock.advance(1);
        await tick();
      }
      await streamed;

      const page = browser.context.pages()[0] ?? (await browser.context.newPage());
      await page.goto(`${running.url}/_parley/ui/#token=${running.server.controlToken}`);
      await page.locator('body[data-loaded="true"]').waitFor();
      await page.locator(`tr[data-seq="${entry()?.seq}"]`).click();
      await page.locator('dialog#detail').waitFor({ state: 'visible' });
      const lines = ((await page.locator('#detail-response').textContent()) ?? '').split('\n');
      const times = lines.slice(lines.findIndex((line) => line.startsWith('Event times')) + 1);
      expect(times).toHaveLength(entry()?.response?.events ?? -1);
      expect(times[0]).toMatch(/^ +300 ms {2}\+300 +messageStart {2}<- longest gap$/);
      expect(times[1]).toMatch(/^ +307 ms {2}\+7 +contentBlockDelta$/);
    } finally {
      await browser.close();
      await running.close();
    }
  });
});
