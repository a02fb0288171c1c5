import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { describe, expect } from 'vitest';
import { bundlePage, contains } from '../helpers/browser-bundle.js';
import { itWithChromium, launchChromium } from '../helpers/chromium.js';
import { servePage } from '../helpers/serve-page.js';

// The page an application would write: the SDK as client, the reference server answering in msw's
// service worker. `https://parley.test` resolves nowhere: only the worker can answer it.
const PAGE = `
import { Parley } from '@parley/sdk';
import { setupWorker } from 'msw/browser';
import { createHandlers, createReferenceServer } from '@parley/reference-server/msw';

const baseUrl = 'https://parley.test';
const server = createReferenceServer();
const worker = setupWorker(...createHandlers(server, { baseUrl }));
const client = new Parley({ baseUrl, token: 'parley-demo-token' });

export async function start() {
  await worker.start({ quiet: true, onUnhandledRequest: 'bypass', serviceWorker: { url: '/mockServiceWorker.js' } });
  return navigator.serviceWorker.controller !== null;
}

// A streamed reply that stops for a client tool call, the tool's result, and a streamed answer whose
// second delta is written only once the page has the first: a buffered transport would never finish.
export async function toolCallConversation() {
  const { sessionId } = await client.sessions.create();
  const first = client.messages.stream(sessionId, {
    content: '/say Let me check.\\n/tool get_weather {"city":"Paris"}',
  });
  const toolUses = [];
  const intro = [];
  first.on('text', (delta) => intro.push(delta)).on('toolUse', (block) => toolUses.push({ name: block.name, input: block.input }));
  const stopReason = await first.stopReason();
  const [pending] = await first.pendingTools();
  await client.tools.respond(sessionId, pending.requestId, { temperatureC: 18 });

  let openGate;
  const gate = new Promise((resolve) => { openGate = resolve; });
  server.setModel(async function* gated(request) {
    const result = request.messages.at(-1).content[0];
    yield { messageStart: { role: 'assistant' } };
    yield { contentBlockDelta: { contentBlockIndex: 0, delta: { text: 'Sunny, ' } } };
    await gate;
    yield { contentBlockDelta: { contentBlockIndex: 0, delta: { text: result.content[0].json.temperatureC + ' degrees.' } } };
    yield { contentBlockStop: { contentBlockIndex: 0 } };
    yield { messageStop: { stopReason: 'end_turn' } };
  });
  const answer = client.messages.stream(sessionId, {});
  const deltas = [];
  answer.on('text', (delta) => { deltas.push(delta); openGate(); });
  const hang = new Promise((resolve) => setTimeout(() => resolve('no delta reached the page while the model waited'), 10000));
  const text = await Promise.race([answer.finalText(), hang]);
  server.reset();
  return {
    stopReason, toolUses, intro: intro.join(''), pendingName: pending.name, text, deltas,
    journal: server.journal.size,
  };
}

// A server-run tool of the built-in erp provider: the gateway and the MCP SDK load on this first use.
export async function erpToolCall() {
  const { sessionId } = await client.sessions.create({ customizations: { extensions: { mcpProviders: ['erp'] } } });
  const reply = await client.messages.send(sessionId, { content: '/mcp erp.get_customer {"customerId":"C-1002"}' });
  const result = reply.messages.find((m) => m.content.some((b) => b.type === 'tool_result'));
  return result.content[0].content[0].json;
}

// A stdio provider needs a child process: a browser refuses it when the server is created.
export function stdioProvider() {
  try {
    createReferenceServer({ extensions: { providers: [{ name: 'local', stdio: { command: 'node' } }] } });
    return 'created';
  } catch (error) {
    return error.message;
  }
}
`;

const require = createRequire(import.meta.url);

describe('the reference server in a browser, under msw’s service worker', () => {
  itWithChromium(
    'runs a streamed conversation with a client tool call; extensions load on first use',
    async () => {
      const bundle = await bundlePage(PAGE);
      const files = new Map<string, { type: string; body: Uint8Array | string }>();
      for (const file of bundle.files.values()) {
        files.set(`/${file.name}`, { type: 'text/javascript', body: file.contents });
      }
      // The worker script msw ships (`npx msw init public/` copies this file).
      files.set('/mockServiceWorker.js', {
        type: 'text/javascript',
        body: await readFile(require.resolve('msw/mockServiceWorker.js')),
      });
      const app = await servePage('<!doctype html><title>app</title>', files);
      const browser = await launchChromium();
      try {
        const page = browser.context.pages()[0] ?? (await browser.context.newPage());
        await page.goto(app.url);
        // Strings, not functions: vitest rewrites `import()` inside test code, the page must not see that.
        const load = (call: string) =>
          page.evaluate(`import(${JSON.stringify(`${app.url}/page.js`)}).then((page) => page.${call})`);
        expect(await load('start()')).toBe(true);

        const conversation = (await load('toolCallConversation()')) as Record<string, unknown>;
        expect(conversation).toEqual({
          stopReason: 'tool_use',
          toolUses: [{ name: 'get_weather', input: { city: 'Paris' } }],
          intro: 'Let me check.',
          pendingName: 'get_weather',
          text: 'Sunny, 18 degrees.',
          deltas: ['Sunny, ', '18 degrees.'],
          journal: 0,
        });
        const lazyNames = (input: RegExp) =>
          bundle.lazyChunks.filter((chunk) => contains([chunk], input)).map((chunk) => `/${chunk.name}`);
        const mcpChunks = lazyNames(/@modelcontextprotocol\/sdk\//);
        expect(mcpChunks.length).toBeGreaterThan(0);
        expect(app.requested.filter((path) => mcpChunks.includes(path))).toEqual([]);

        expect(await load('erpToolCall()')).toMatchObject({
          customer: { customerId: 'C-1002', name: 'Globex Ltd' },
        });
        expect(app.requested.some((path) => mcpChunks.includes(path))).toBe(true);

        expect(await load('stdioProvider()')).toBe(
          'Provider "local": stdio providers start a child process, which a browser cannot: ' +
            'use an HTTP provider ({ name, url }) or an in-process one ({ name, server }) here',
        );
      } finally {
        await browser.close();
        await app.close();
      }
    },
    60_000,
  );
});
