import { startServer } from '@parley/reference-server';
import { describe, expect } from 'vitest';
import { bundleForBrowser, itWithChromium, launchChromium, servePage } from '../helpers/browser.js';

// The SDK's shortest lease: three beats of 250 ms (defaults.heartbeat.minIntervalMs).
const LEASE_MS = 750;

const PAGE_ENTRY = `
export { Parley, defineTool, jsonSchema } from '@parley/sdk';
`;

// The page: a tool loop whose approve callback shows the call with two buttons and waits for a
// click. Each heartbeat bumps body[data-beats], so the test can wait for the lease to be renewed
// while the question is up.
const START_LOOP = (sdkUrl: string, apiUrl: string) => `(async () => {
  const { Parley, defineTool, jsonSchema } = await import(${JSON.stringify(sdkUrl)});
  const client = new Parley({ baseUrl: ${JSON.stringify(apiUrl)}, token: 'parley-demo-token' });
  const outbox = [];
  const sendEmail = defineTool({
    name: 'send_email',
    description: 'Sends an email',
    input: jsonSchema({ type: 'object', properties: { to: { type: 'string' } }, required: ['to'] }),
    needsApproval: true,
    run: ({ to }) => { outbox.push(to); return { sent: true }; },
  });
  const approve = ({ sessionId, requestId, name, rawInput, signal }) => new Promise((resolve) => {
    window.asked = { sessionId, requestId };
    const dialog = document.createElement('div');
    dialog.id = 'question';
    dialog.innerHTML = '<p></p><input id="reason" placeholder="why not?"><button id="approve">Send</button><button id="deny">Do not send</button>';
    dialog.querySelector('p').textContent = name + ' ' + JSON.stringify(rawInput);
    const answer = (value) => { dialog.remove(); resolve(value); };
    dialog.querySelector('#approve').onclick = () => answer({ approved: true, by: 'page' });
    dialog.querySelector('#deny').onclick = () =>
      answer({ approved: false, reason: dialog.querySelector('#reason').value, by: 'page' });
    signal.addEventListener('abort', () => dialog.remove());
    document.body.append(dialog);
  });
  const { sessionId } = await client.sessions.create({ tools: [sendEmail] });
  document.body.dataset.beats = '0';
  const ask = (content) => client.runToolLoop({
    sessionId, content, approve, random: () => 0,
    onHeartbeat: () => { document.body.dataset.beats = String(Number(document.body.dataset.beats) + 1); },
  }).then((result) => ({
    status: result.status,
    finalText: result.finalText,
    approvals: result.steps[0].approvals,
    outbox: [...outbox],
  }));
  window.first = ask('/tool send_email {"to":"ada@example.com"}\\n/then Sent.');
  window.second = window.first.then(() => ask('/tool send_email {"to":"eve@example.com"}'));
})()`;

describe('approval from a page', () => {
  itWithChromium("a page's buttons approve or deny a call while its heartbeat keeps the lease", async () => {
    const page = await bundleForBrowser({ contents: PAGE_ENTRY });
    const api = await startServer({ port: 0, heartbeatTimeoutMs: LEASE_MS });
    const app = await servePage({ '/sdk.js': page });
    const chromium = await launchChromium();
    try {
      const tab = chromium.context.pages()[0] ?? (await chromium.context.newPage());
      await tab.goto(app.url);
      // A string, not a function: vitest rewrites `import()` inside test code, the page must not see that.
      await tab.evaluate(START_LOOP(`${app.url}/sdk.js`, api.url));

      // The question is up; the lease is renewed for longer than one lease while it waits.
      expect(await tab.textContent('#question p')).toBe('send_email {"to":"ada@example.com"}');
      await tab.waitForFunction('Number(document.body.dataset.beats) >= 6');
      // Any other worker reading the call now finds it held (PROCESSING), not claimable (PENDING).
      const { sessionId, requestId } = (await tab.evaluate('window.asked')) as Record<string, string>;
      const call = await fetch(`${api.url}/v1/tools/request/${sessionId}/${requestId}`, {
        headers: { authorization: 'Bearer parley-demo-token' },
      });
      expect(((await call.json()) as { state: string }).state).toBe('PROCESSING');
      await tab.click('#approve');
      const first = (await tab.evaluate('window.first')) as Record<string, unknown>;
      expect(first).toMatchObject({
        status: 'done',
        finalText: 'Sent.',
        approvals: [
          { name: 'send_email', input: { to: 'ada@example.com' }, outcome: 'approved', by: 'page' },
        ],
        outbox: ['ada@example.com'],
      });

      // The second call: denied with a reason typed on the page.
      await tab.fill('#reason', 'Eve is not a customer');
      await tab.click('#deny');
      const second = (await tab.evaluate('window.second')) as Record<string, unknown>;
      const denial = 'Tool "send_email" was not run: approval was denied: Eve is not a customer';
      expect(second).toMatchObject({
        status: 'done',
        finalText: `Tool send_email failed: ${denial}.`,
        approvals: [{ outcome: 'denied', by: 'page', reason: 'Eve is not a customer' }],
        outbox: ['ada@example.com'],
      });
      expect(await tab.locator('#question').count()).toBe(0);
    } finally {
      await chromium.close();
      await api.close();
      await app.close();
    }
  });
});
