import { turn } from '@parley/reference-server';
import { useReferenceServer } from '@parley/reference-server/vitest';
import { Parley } from '@parley/sdk';
import { ParleyContainer } from '@parley/testcontainers';
import { afterAll, describe, expect, it } from 'vitest';
import { IMAGE } from './engine.js';

// A vitest suite using a container exactly as a shared server (docs/containers.md): the runner
// helper's `serverUrl` and `controlToken` are the container's. Started once for the file.
const container = await new ParleyContainer(IMAGE).start();
afterAll(() => container.stop());

describe.sequential('useReferenceServer({ serverUrl: container.baseUrl })', () => {
  const parley = useReferenceServer({
    serverUrl: container.baseUrl,
    controlToken: container.controlToken,
    createClient: (init) => new Parley(init),
  });

  it("the runner helper puts each test in its own scope on the container: the test's script answers its client", async () => {
    await parley.script([turn.text('Hello from the container.')]);
    const { sessionId } = await parley.client.sessions.create();
    const reply = await parley.client.messages.send(sessionId, { content: 'Hi' });
    expect(reply.messages.at(-1)?.content).toEqual([{ type: 'text', text: 'Hello from the container.' }]);
    expect(await parley.journal({ method: 'POST' })).toHaveLength(2);
    // The helper's scope is the container's scope of that test id.
    const testId = parley.testId ?? '';
    expect(testId).toContain('the runner helper puts each test');
    const same = await container
      .fetch(`${container.baseUrl}/_parley/journal`, {
        headers: { 'x-parley-control-token': container.controlToken, 'x-parley-test-id': testId },
      })
      .then((r) => r.json() as Promise<{ entries: unknown[] }>);
    expect(same.entries).toHaveLength(2);
  });

  it("a test after it starts clean: the helper reset the last test's scope on the container", async () => {
    expect(await parley.journal()).toEqual([]);
    expect(await parley.sessions()).toEqual([]);
    const { sessionId } = await parley.client.sessions.create();
    const reply = await parley.client.messages.send(sessionId, { content: 'Hi' });
    // No script in this test's scope: the stand-in model answers, not the last test's script.
    expect(JSON.stringify(reply.messages.at(-1)?.content)).not.toContain('Hello from the container.');
  });
});
