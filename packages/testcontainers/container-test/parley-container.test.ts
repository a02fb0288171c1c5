import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { turn } from '@parley/reference-server';
import { testIdHeaderValue } from '@parley/reference-server/node';
import { APIConnectionError, Parley } from '@parley/sdk';
import { ParleyContainer, ParleyContainerError, type StartedParleyContainer } from '@parley/testcontainers';
import { Network } from 'testcontainers';
import { describe, expect, it } from 'vitest';
import { engineOk, IMAGE } from './engine.js';

// ParleyContainer against the image built from the repository, through the Docker API (Podman's
// here). No Ryuk: every container is stopped in `finally`.

const json = { 'content-type': 'application/json' };

async function createSession(parley: StartedParleyContainer, testId: string): Promise<string> {
  const response = await parley.testScope(testId).fetch('/v1/sessions', { method: 'POST' });
  expect(response.status).toBe(201);
  return ((await response.json()) as { sessionId: string }).sessionId;
}

describe('ParleyContainer', () => {
  it('starts the image with the users and script given, waits for /readyz, and gives baseUrl and the first token', async () => {
    const parley = await new ParleyContainer(IMAGE)
      .withUsers({ alice: 'alice-token-1', bob: 'bob-token-2' })
      .withScript({ turns: [{ text: 'Scripted in the container.' }] })
      .start();
    try {
      expect(parley.baseUrl).toMatch(/^http:\/\/[^/]+:\d+$/);
      expect(parley.token).toBe('alice-token-1');
      expect(await (await fetch(`${parley.baseUrl}/readyz`)).json()).toEqual({ status: 'ready' });
      const created = await fetch(`${parley.baseUrl}/v1/sessions`, {
        method: 'POST',
        headers: { authorization: 'Bearer bob-token-2' },
      });
      expect(created.status).toBe(201);
      const { sessionId } = (await created.json()) as { sessionId: string };
      const reply = await fetch(`${parley.baseUrl}/v1/messages/${sessionId}`, {
        method: 'POST',
        headers: { authorization: 'Bearer bob-token-2', ...json },
        body: JSON.stringify({ content: 'Hi' }),
      });
      expect(JSON.stringify(await reply.json())).toContain('Scripted in the container.');
      const demo = await fetch(`${parley.baseUrl}/v1/sessions`, {
        method: 'POST',
        headers: { authorization: 'Bearer parley-demo-token' },
      });
      expect(demo.status).toBe(401);
    } finally {
      await parley.stop();
    }
  });

  it("per-test handles are the runner helpers' shared-server scopes: scoped by test id, script, faults, journal and reset of one test never reach another", async () => {
    const parley = await new ParleyContainer(IMAGE).start();
    try {
      // The runner helpers' test-id encoding: a name past printable ASCII, a retry's mark.
      const retried = parley.testScope('café.spec.ts > pays', { retry: 1 });
      expect(retried.testId).toBe('caf%C3%A9.spec.ts > pays %retry=1');
      expect(retried.testId).toBe(testIdHeaderValue('café.spec.ts > pays', { retry: 1 }));
      expect(retried.headers).toEqual({ 'x-parley-test-id': retried.testId });
      await retried.fetch('/v1/sessions', { method: 'POST' });
      expect((await retried.journal()).map((e) => e.path)).toEqual(['/v1/sessions']);
      // The first run of the same test is a scope of its own.
      expect(await parley.testScope('café.spec.ts > pays').journal()).toEqual([]);
      expect(await retried.proxyReport()).toBeUndefined();
      const first = parley.testScope('chat.spec.ts > first');
      const second = parley.testScope('chat.spec.ts > second');
      await first.script([turn.text('Only for the first.')]);
      await second.queueFault({ status: 503, match: { path: '/v1/sessions' } });
      expect(await first.pendingFaults()).toEqual([]);
      expect(await second.pendingFaults()).toHaveLength(1);

      const failed = await second.fetch('/v1/sessions', { method: 'POST' });
      expect(failed.status).toBe(503);
      const sessionId = await createSession(parley, 'chat.spec.ts > first');
      const reply = await first.fetch(`/v1/messages/${sessionId}`, {
        method: 'POST',
        headers: json,
        body: JSON.stringify({ content: 'Hi' }),
      });
      expect(JSON.stringify(await reply.json())).toContain('Only for the first.');

      expect((await first.journal()).map((e) => `${e.method} ${e.path}`)).toEqual([
        'POST /v1/sessions',
        `POST /v1/messages/${sessionId}`,
      ]);
      expect((await second.journal()).map((e) => e.response?.status)).toEqual([503]);
      expect(await first.sessions()).toHaveLength(1);
      await first.reset();
      expect(await first.journal()).toEqual([]);
      expect(await first.sessions()).toEqual([]);
      expect(await second.journal()).toHaveLength(1);
    } finally {
      await parley.stop();
    }
  });

  it('withUsersFile, withCassette and withChaos reach the server as its variables and mounted files', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'parley-tc-'));
    await writeFile(join(dir, 'users'), '# CI users\nreplayer:replay-token-1\n');
    const cassette = fileURLToPath(
      new URL('../../reference-server/test/cassette/cassettes/weather.json', import.meta.url),
    );
    const [replaying, chaotic] = await Promise.all([
      new ParleyContainer(IMAGE).withUsersFile(join(dir, 'users')).withCassette(cassette).start(),
      new ParleyContainer(IMAGE).withChaos({ rate: 1, seed: 7, kinds: ['status'], status: [429] }).start(),
    ]);
    try {
      expect(replaying.token).toBe('replay-token-1');
      const test = replaying.testScope('replay');
      const created = await test.fetch('/v1/sessions', { method: 'POST' });
      const { sessionId } = (await created.json()) as { sessionId: string };
      const reply = await test.fetch(`/v1/messages/${sessionId}`, {
        method: 'POST',
        headers: json,
        body: JSON.stringify({ content: 'What is the weather in Paris?' }),
      });
      const body = JSON.stringify(await reply.json());
      expect(body).toContain('Let me check.');
      expect(body).toContain('"name":"get_weather"');

      const faulted = await chaotic.testScope('chaos').fetch('/v1/sessions', { method: 'POST' });
      expect(faulted.status).toBe(429);
    } finally {
      await Promise.all([replaying.stop(), chaotic.stop()]);
    }
  });

  it('withUpstream makes a checking proxy in front of another container, reached by its network alias', async () => {
    const network = await new Network().start();
    let upstream: StartedParleyContainer | undefined;
    let proxy: StartedParleyContainer | undefined;
    try {
      upstream = await new ParleyContainer(IMAGE)
        .withNetwork(network)
        .withNetworkAliases('parley-upstream')
        .start();
      proxy = await new ParleyContainer(IMAGE)
        .withNetwork(network)
        .withUpstream('http://parley-upstream:4010', { timeoutMs: 5000 })
        .start();
      const created = await proxy.testScope('proxied').fetch('/v1/sessions', { method: 'POST' });
      expect(created.status).toBe(201);
      const { sessionId } = (await created.json()) as { sessionId: string };
      // The session lives upstream: the proxy forwarded the create.
      const onUpstream = await fetch(`${upstream.baseUrl}/v1/messages/${sessionId}`, {
        headers: { authorization: `Bearer ${upstream.token}` },
      });
      expect(onUpstream.status).toBe(200);
    } finally {
      await proxy?.stop();
      await upstream?.stop();
      await network.stop();
    }
  });

  it('two containers at once are two servers: a session of one is unknown to the other', async () => {
    const [a, b] = await Promise.all([
      new ParleyContainer(IMAGE).withUsers({ ci: 'same-token-for-both' }).start(),
      new ParleyContainer(IMAGE).withUsers({ ci: 'same-token-for-both' }).start(),
    ]);
    try {
      expect(a.baseUrl).not.toBe(b.baseUrl);
      const sessionId = await createSession(a, 'two > a');
      const onA = await a.testScope('two > a').fetch(`/v1/messages/${sessionId}`);
      const onB = await b.testScope('two > a').fetch(`/v1/messages/${sessionId}`);
      expect(onA.status).toBe(200);
      expect(onB.status).toBe(404);
    } finally {
      await Promise.all([a.stop(), b.stop()]);
    }
  });

  it('a container stopped mid-stream ends the read and every later call with a ParleyContainerError, not a hang', async () => {
    const parley = await new ParleyContainer(IMAGE).withPace({ ttftMs: 0, wordsPerSecond: 5 }).start();
    let stopped = false;
    try {
      const test = parley.testScope('stopped mid-test');
      const sessionId = await createSession(parley, 'stopped mid-test');
      const stream = await test.fetch(`/v1/messages/${sessionId}/stream`, {
        method: 'POST',
        headers: json,
        body: JSON.stringify({ content: 'one two three four five six seven eight nine ten eleven twelve' }),
      });
      const reader = (stream.body as ReadableStream<Uint8Array>).getReader();
      const first = await reader.read();
      expect(first.done).toBe(false);
      await parley.stop({ timeout: 0 });
      stopped = true;
      const rest = (async () => {
        for (;;) if ((await reader.read()).done) return 'ended';
      })();
      await expect(rest).rejects.toThrow(ParleyContainerError);
      await expect(rest).rejects.toThrow(/did not answer/);
      await expect(test.journal()).rejects.toThrow(ParleyContainerError);
      await expect(test.fetch('/v1/sessions', { method: 'POST' })).rejects.toThrow(
        /POST http:\/\/.*\/v1\/sessions failed: the Parley container \w+ did not answer/,
      );
      await expect(test.reset()).rejects.toThrow(ParleyContainerError);
      await expect(test.proxyReport()).rejects.toThrow(ParleyContainerError);
      // A client given the container's fetch: the SDK's connection error, caused by the container's.
      const client = new Parley({
        baseUrl: parley.baseUrl,
        token: parley.token,
        fetch: parley.fetch,
        maxRetries: 0,
      });
      const failed = await client.sessions.create().catch((error: unknown) => error);
      expect(failed).toBeInstanceOf(APIConnectionError);
      expect((failed as Error).cause).toBeInstanceOf(ParleyContainerError);
    } finally {
      if (!stopped) await parley.stop();
    }
  });

  it('a container that stops answering (paused) fails a control call after the control timeout, not a hang', async () => {
    const parley = await new ParleyContainer(IMAGE).withControlTimeout(500).start();
    try {
      const test = parley.testScope('paused');
      await engineOk('pause', parley.getId());
      try {
        await expect(test.journal()).rejects.toThrow(
          /GET http:\/\/.*\/_parley\/journal failed: the Parley container \w+ did not answer \(no answer within 500 ms\)/,
        );
        await expect(parley.reset()).rejects.toThrow(ParleyContainerError);
      } finally {
        await engineOk('unpause', parley.getId());
      }
      expect(await test.journal()).toEqual([]);
    } finally {
      await parley.stop();
    }
  });

  it('a server that exits at start (a bad option) fails start() with its message, without waiting out the timeout', async () => {
    const start = new ParleyContainer(IMAGE).withPace('ttft=soon').start();
    await expect(start).rejects.toThrow(/Container exited during HTTP healthCheck/);
    await expect(start).rejects.toThrow(/PARLEY_PACE value 'ttft=soon' is invalid/);
  });
});
