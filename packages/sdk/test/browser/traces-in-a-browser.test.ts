import { startServer } from '@parley/reference-server';
import { describe, expect } from 'vitest';
import { bundleForBrowser, itWithChromium, launchChromium, servePage } from '../helpers/browser.js';

// The page's app: a tool loop traced by the OpenTelemetry SDK's browser build (an in-memory
// exporter), and the same calls through a tracer written by hand (any object with `startSpan`). The
// page registers no context manager and a browser has no AsyncLocalStorage: the spans nest through
// the SDK's own manager, which holds a context while code runs synchronously.
const APP = `
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { defineTool, jsonSchema, Parley } from '@parley/sdk';

export async function run(baseUrl) {
  const exporter = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  const client = new Parley({ baseUrl, token: 'parley-demo-token', tracer: provider.getTracer('page') });
  const ping = defineTool({
    name: 'ping',
    description: 'Answers pong',
    input: jsonSchema({ type: 'object', properties: {}, required: [] }),
    run: () => ({ pong: true }),
  });
  const { sessionId } = await client.sessions.create({ tools: [ping] });
  const result = await client.runToolLoop({ sessionId, content: '/tool ping {}\\n/then pong', stream: true });
  const spans = exporter.getFinishedSpans();
  const byId = new Map(spans.map((s) => [s.spanContext().spanId, s.name]));
  const tree = spans.map((s) => [s.name, byId.get(s.parentSpanContext?.spanId) ?? null]);

  const started = [];
  const handWritten = {
    startSpan(name, options, context) {
      started.push(name);
      return {
        isRecording: () => true, setAttribute() {}, setAttributes() {}, addEvent() {}, setStatus() {},
        recordException() {}, end() {},
      };
    },
  };
  const other = new Parley({ baseUrl, token: 'parley-demo-token', tracer: handWritten });
  await other.messages.stream(sessionId, { content: '/say Hi.' }).finalText();
  return { text: result.finalText, tree, started };
}
`;

describe('traces in a browser', () => {
  itWithChromium(
    'a tool loop in a page records its spans through any tracer, nested with no context manager registered',
    async () => {
      const bundle = await bundleForBrowser({ contents: APP });
      const api = await startServer({ port: 0 });
      const app = await servePage({ '/app.js': bundle });
      const chromium = await launchChromium();
      try {
        const page = chromium.context.pages()[0] ?? (await chromium.context.newPage());
        await page.goto(app.url);
        // A string, not a function: vitest rewrites `import()` inside test code, the page must not see that.
        const script = `import(${JSON.stringify(`${app.url}/app.js`)}).then((m) => m.run(${JSON.stringify(api.url)}))`;
        const result = (await page.evaluate(script)) as {
          text: string;
          tree: Array<[string, string | null]>;
          started: string[];
        };
        expect(result.text).toBe('pong');
        expect(result.tree).toEqual(
          expect.arrayContaining([
            ['parley.tool_loop', null],
            ['parley.tool_loop.step', 'parley.tool_loop'],
            ['parley.messages.stream', 'parley.tool_loop.step'],
            ['POST /v1/messages/{sessionId}/stream', 'parley.messages.stream'],
            ['execute_tool ping', 'parley.tool_loop.step'],
            ['POST /v1/tools/response/{sessionId}/{requestId}', 'execute_tool ping'],
          ]),
        );
        expect(result.started).toEqual(['parley.messages.stream', 'POST /v1/messages/{sessionId}/stream']);
      } finally {
        await chromium.close();
        await api.close();
        await app.close();
      }
    },
  );
});
