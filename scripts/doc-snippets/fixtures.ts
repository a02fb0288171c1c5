// What a documentation snippet may use without declaring it. Each snippet test gets fresh ones:
// a reference server, an SDK client bound to it, a session, a reply stopped for a tool, a tool.
// `http://localhost:4010` and `http://127.0.0.1:4010` (the CLI's default address in the docs) are
// answered in-process through msw, so snippets written for a running server run as written.
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createReferenceServer, type ReferenceServer, scriptedModel, turn } from '@parley/reference-server';
import { createHandlers } from '@parley/reference-server/msw';
import { defineTool, type MessageReply, Parley, type PendingTool } from '@parley/sdk';
import { setupServer } from 'msw/node';
import { vi } from 'vitest';
import { z } from 'zod';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const DOC_ADDRESSES = ['http://localhost:4010', 'http://127.0.0.1:4010'];

function weatherTool() {
  return defineTool({
    name: 'get_weather',
    description: 'Current weather for a city',
    input: z.object({ city: z.string().describe('City name') }),
    output: z.object({ temperature: z.number() }),
    async run({ city }) {
      return { temperature: city === 'Paris' ? 18 : 21 };
    },
  });
}

async function createFixtures(server: ReferenceServer, needs: readonly string[]) {
  const client = new Parley({
    baseUrl: 'http://parley.test',
    token: 'parley-demo-token',
    fetch: server.fetch,
  });
  const { sessionId } = await client.sessions.create();
  // `reply` and `pending` belong to `sessionId`: only snippets that use them find a tool call open.
  // Made only when used, so the journal holds only what the snippet itself sent.
  const stopped = needs.includes('reply') || needs.includes('pending');
  const reply = stopped
    ? await client.messages.send(sessionId, { content: '/tool get_weather {"city":"Paris"}' })
    : (undefined as unknown as MessageReply);
  const pending = stopped ? reply.pendingTools[0]! : (undefined as unknown as PendingTool);
  return {
    server,
    client,
    sessionId,
    reply,
    pending,
    getWeather: weatherTool(),
    myModel: scriptedModel([turn.text('Hello from my model.')]),
  };
}

/** Runs one snippet with fresh fixtures, in a temporary working directory, with console output kept quiet. */
export async function withDocFixtures(
  options: { files: string[]; needs: string[]; env?: Record<string, string> },
  run: (fixtures: Awaited<ReturnType<typeof createFixtures>>) => Promise<void>,
): Promise<void> {
  const server = createReferenceServer();
  // As `pnpm start -- --control` would run it: control routes and the MCP providers by URL on.
  const local = createReferenceServer({ control: true });
  const mock = setupServer(...DOC_ADDRESSES.flatMap((baseUrl) => createHandlers(local, { baseUrl })));
  mock.listen({ onUnhandledRequest: 'bypass' });
  const cwd = process.cwd();
  const dir = mkdtempSync(join(tmpdir(), 'parley-doc-'));
  for (const file of options.files) copyFileSync(join(ROOT, file), join(dir, basename(file)));
  process.chdir(dir);
  for (const [name, value] of Object.entries(options.env ?? {})) vi.stubEnv(name, value);
  const quiet = [
    vi.spyOn(console, 'log').mockImplementation(() => {}),
    vi.spyOn(console, 'debug').mockImplementation(() => {}),
    // The OpenTelemetry SDK's ConsoleSpanExporter prints each span with console.dir.
    vi.spyOn(console, 'dir').mockImplementation(() => {}),
    vi.spyOn(console, 'error').mockImplementation(() => {}),
    vi.spyOn(process.stdout, 'write').mockImplementation(() => true),
  ];
  try {
    await run(await createFixtures(server, options.needs));
  } finally {
    for (const spy of quiet) spy.mockRestore();
    vi.unstubAllEnvs();
    process.chdir(cwd);
    rmSync(dir, { recursive: true, force: true });
    mock.close();
    await server.close();
    await local.close();
  }
}
