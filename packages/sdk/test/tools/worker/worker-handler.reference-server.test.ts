import type { ToolCallState } from '@parley/protocol';
import { createReferenceServer, ManualClock, type ReferenceServerOptions } from '@parley/reference-server';
import {
  type AnyTool,
  APIUserAbortError,
  defineTool,
  Parley,
  runToolLoop,
  ToolCallLostError,
  toolsToExtensions,
} from '@parley/sdk';
import { runTool } from '@parley/sdk/tools';
import { workerHandler } from '@parley/sdk/worker';
import { describe, expect, test } from 'vitest';
import { z } from 'zod';
import { burnCpu } from './fixtures/burn-cpu.mjs';
import { ExitLog, fixture, release, SOURCE_EXEC_ARGV, sharedFlags, started } from './helpers.js';

// The SDK beats at most every 250 ms (defaults.heartbeat.minIntervalMs) and wants three beats per lease,
// so 750 ms is the shortest lease it can keep; with `random: () => 0` every wait is exactly 250 ms.
const LEASE_MS = 750;
// Beats the server must receive while the handler blocks its thread: 9 × 250 ms = 3 lease lengths.
const BEATS_WHILE_BLOCKED = 9;
const AUTH = { authorization: 'Bearer parley-demo-token' };
const noJitter = () => 0;

const input = z.object({ mode: z.string(), message: z.string().optional() });
const output = z.object({ rounds: z.number() });

/** The tool with its handler in a worker thread (the cpu-bound fixture). */
function workerTool(flags: Int32Array, log: ExitLog, extra: Parameters<typeof workerHandler>[1] = {}) {
  return defineTool({
    name: 'crunch',
    description: 'CPU-bound work',
    input,
    output,
    run: workerHandler(fixture('cpu-bound-worker.mjs'), {
      execArgv: SOURCE_EXEC_ARGV,
      workerData: flags,
      onExit: log.onExit,
      ...extra,
    }),
  });
}

interface SeenRequest {
  kind: 'heartbeat' | 'respond' | 'fail';
  /** The state any worker reading the call would have seen just before this request landed. */
  stateBefore: ToolCallState;
}

/**
 * A reference server with a short lease, and a client whose requests pass through an observer:
 * before each tool request it reads the call as any other worker would (`GET .../request/...`);
 * after each accepted beat it calls `afterBeat`.
 */
async function setup(serverOptions: ReferenceServerOptions, afterBeat: () => void = () => {}) {
  const server = createReferenceServer({ heartbeatTimeoutMs: LEASE_MS, ...serverOptions });
  const seen: SeenRequest[] = [];
  const client = new Parley({
    baseUrl: 'http://parley.test',
    token: 'parley-demo-token',
    fetch: async (input, init) => {
      const request = new Request(input, init);
      const path = new URL(request.url).pathname;
      const tool = /^\/v1\/tools\/(request|response)\/([^/]+)\/([^/]+)/.exec(path);
      if (!tool || request.method !== 'POST') return server.fetch(request);
      const read = await server.fetch(
        new Request(`http://parley.test/v1/tools/request/${tool[2]}/${tool[3]}`, { headers: AUTH }),
      );
      const { state } = (await read.json()) as { state: ToolCallState };
      const body = (await request.clone().json()) as { state?: string };
      const kind = tool[1] === 'response' ? 'respond' : body.state === 'ERROR' ? 'fail' : 'heartbeat';
      seen.push({ kind, stateBefore: state });
      const response = await server.fetch(request);
      if (kind === 'heartbeat' && response.ok) afterBeat();
      return response;
    },
  });
  return { server, client, seen };
}

async function pendingCall(client: Parley, tool: AnyTool, mode: string) {
  const { sessionId } = await client.sessions.create({
    customizations: { agentId: 'assistant', extensions: { tools: toolsToExtensions([tool]) } },
  });
  const reply = await client.messages.send(sessionId, { content: `/tool crunch {"mode":"${mode}"}` });
  const pending = reply.pendingTools[0];
  if (!pending) throw new Error('expected a pending tool call');
  return { sessionId, pending, heartbeatTimeoutMs: reply.heartbeatTimeoutMs };
}

describe('heartbeats survive a CPU-bound handler run in a worker thread', () => {
  test('a handler blocking its thread for three lease lengths keeps the lease and completes', async () => {
    const flags = sharedFlags();
    const log = new ExitLog();
    let beatsWhileBlocked = 0;
    const { client, seen } = await setup({}, () => {
      if (Atomics.load(flags, 1) !== 1) return;
      beatsWhileBlocked++;
      if (beatsWhileBlocked === BEATS_WHILE_BLOCKED) release(flags);
    });
    const tool = workerTool(flags, log);
    const { sessionId, pending, heartbeatTimeoutMs } = await pendingCall(client, tool, 'until-released');
    expect(heartbeatTimeoutMs).toBe(LEASE_MS);

    const result = await runTool(client, { sessionId, pending, tool, heartbeatTimeoutMs, random: noJitter });

    expect(result.status).toBe('COMPLETE');
    expect(result.output?.rounds).toBeGreaterThan(0);
    expect(beatsWhileBlocked).toBe(BEATS_WHILE_BLOCKED);
    // The claim found the call PENDING; from then on every reader saw PROCESSING: the lease never
    // went stale, so no other worker could take the call over.
    expect(seen[0]).toEqual({ kind: 'heartbeat', stateBefore: 'PENDING' });
    expect(seen.slice(1).every((r) => r.stateBefore === 'PROCESSING')).toBe(true);
    expect(seen.at(-1)?.kind).toBe('respond');
    expect(seen.filter((r) => r.kind === 'heartbeat').length).toBeGreaterThan(BEATS_WHILE_BLOCKED);
    expect((await client.tools.get(sessionId, pending.requestId)).state).toBe('COMPLETE');
    expect(await log.nth(1)).toMatchObject({ reason: 'done', terminated: false });
  });

  test('contrast: the same work on the main thread stops the beats and the lease goes stale', async () => {
    let beats = 0;
    let claimed!: () => void;
    const claim = new Promise<void>((resolve) => {
      claimed = resolve;
    });
    const { client, seen } = await setup({}, () => {
      beats++;
      claimed();
    });
    let beatsDuringWork = -1;
    const tool = defineTool({
      name: 'crunch',
      description: 'CPU-bound work',
      input,
      output,
      run: async () => {
        await claim; // the call is PROCESSING with a fresh lease
        const before = beats;
        const start = Date.now();
        const rounds = burnCpu(() => Date.now() - start >= 3 * LEASE_MS);
        beatsDuringWork = beats - before;
        return { rounds };
      },
    });
    const { sessionId, pending, heartbeatTimeoutMs } = await pendingCall(client, tool, 'main-thread');

    const result = await runTool(client, { sessionId, pending, tool, heartbeatTimeoutMs, random: noJitter });

    // The timer shares the thread: not one beat went out while the handler computed, so the
    // response found the call PENDING, free for any other worker to claim while this one ran.
    expect(beatsDuringWork).toBe(0);
    expect(seen.at(-1)).toEqual({ kind: 'respond', stateBefore: 'PENDING' });
    expect(result.status).toBe('COMPLETE');
  });

  test('an abort terminates the worker at once and reports nothing, as on the main thread', async () => {
    const flags = sharedFlags();
    const log = new ExitLog();
    const controller = new AbortController();
    let beatsWhileBlocked = 0;
    const { client, seen } = await setup({}, () => {
      if (Atomics.load(flags, 1) === 1 && ++beatsWhileBlocked === 2) controller.abort(new Error('user left'));
    });
    const tool = workerTool(flags, log, { abortGraceMs: 0 });
    const { sessionId, pending, heartbeatTimeoutMs } = await pendingCall(client, tool, 'forever');

    const error = await runTool(client, {
      sessionId,
      pending,
      tool,
      heartbeatTimeoutMs,
      signal: controller.signal,
      random: noJitter,
    }).catch((e: unknown) => e);

    expect(error instanceof APIUserAbortError).toBe(true);
    // The handler never looks at its signal: only terminate() could stop it.
    expect(await log.nth(1)).toEqual({ requestId: pending.requestId, reason: 'aborted', terminated: true });
    expect(seen.every((r) => r.kind === 'heartbeat')).toBe(true);
    const call = await client.tools.get(sessionId, pending.requestId);
    expect(call.settledAt).toBeNull();
  });

  test('a handler still running at the call deadline is terminated when the server abandons the call', async () => {
    const clock = new ManualClock(1_000);
    const flags = sharedFlags();
    const log = new ExitLog();
    const { client } = await setup({ clock, toolCallTimeoutMs: 60_000 });
    const tool = workerTool(flags, log, { abortGraceMs: 0 });
    const { sessionId, pending, heartbeatTimeoutMs } = await pendingCall(client, tool, 'forever');

    const run = runTool(client, { sessionId, pending, tool, heartbeatTimeoutMs, random: noJitter });
    await started(flags);
    await clock.advance(60_000); // past the deadline: the next beat gets 409
    const result = await run;

    expect(result.status).toBe('LOST');
    expect(result.cause instanceof ToolCallLostError && result.cause.reason).toBe('ABANDONED');
    expect(await log.nth(1)).toEqual({ requestId: pending.requestId, reason: 'aborted', terminated: true });
    expect((await client.tools.get(sessionId, pending.requestId)).state).toBe('ABANDONED');
  });

  test('a handler past timeoutMs is terminated and the model gets a tool error', async () => {
    const flags = sharedFlags();
    const log = new ExitLog();
    const { client } = await setup({});
    const tool = workerTool(flags, log, { timeoutMs: 300, abortGraceMs: 0 });
    const { sessionId, pending, heartbeatTimeoutMs } = await pendingCall(client, tool, 'forever');

    const result = await runTool(client, { sessionId, pending, tool, heartbeatTimeoutMs });

    const message = 'Tool "crunch" ran past its 300 ms time limit and was stopped';
    expect(result).toMatchObject({ status: 'ERROR', error: message });
    expect(await client.tools.get(sessionId, pending.requestId)).toMatchObject({
      state: 'ERROR',
      error: message,
    });
    expect(await log.nth(1)).toMatchObject({ reason: 'timed_out', terminated: true });
  });

  test('timeoutMs covers the start of the worker: a module that never calls serveToolHandler is stopped at the limit, not at the deadline', async () => {
    // The server's clock never moves: without the limit, nothing would ever end this call.
    const { client } = await setup({ clock: new ManualClock(1_000), toolCallTimeoutMs: 6_000 });
    const log = new ExitLog();
    const tool = defineTool({
      name: 'crunch',
      description: 'A worker module that never serves',
      input,
      run: workerHandler(fixture('never-serves-worker.mjs'), {
        timeoutMs: 800,
        abortGraceMs: 0,
        onExit: log.onExit,
      }),
    });
    const { sessionId, pending, heartbeatTimeoutMs } = await pendingCall(client, tool, 'any');

    const result = await runTool(client, { sessionId, pending, tool, heartbeatTimeoutMs });

    const message = 'Tool "crunch" ran past its 800 ms time limit and was stopped';
    expect(result).toMatchObject({ status: 'ERROR', error: message });
    expect(await client.tools.get(sessionId, pending.requestId)).toMatchObject({
      state: 'ERROR',
      error: message,
    });
    expect(await log.nth(1)).toMatchObject({ reason: 'timed_out', terminated: true });
  });

  test('runToolLoop runs a worker tool: a thrown error goes to the model, the next call completes', async () => {
    const flags = sharedFlags();
    release(flags);
    const log = new ExitLog();
    const { client } = await setup({});
    const tool = workerTool(flags, log);
    const { sessionId } = await client.sessions.create({
      customizations: { agentId: 'assistant', extensions: { tools: toolsToExtensions([tool]) } },
    });
    const result = await runToolLoop(client, {
      sessionId,
      content:
        '/tool crunch {"mode":"throw","message":"No data for Atlantis"}\n/tool crunch {"mode":"until-released"}\n/then Done.',
      tools: [tool],
    });
    expect(result).toMatchObject({ status: 'done', finalText: 'Done.' });
    const [failed, done] = result.steps[0]?.toolResults ?? [];
    expect(failed).toMatchObject({ status: 'ERROR', error: 'No data for Atlantis' });
    expect(done).toMatchObject({ status: 'COMPLETE', output: { rounds: 0 } });
    // Each call had its own worker; both were shut down once they answered.
    await log.nth(2);
    expect(log.exits.map((e) => e.reason)).toEqual(['done', 'done']);
  });
});

describe('a worker that breaks the worker protocol, in a tool loop', () => {
  test('its malformed message ends the call as ERROR at once; the host and the loop go on', async () => {
    const escaped: unknown[] = [];
    const onError = (error: unknown) => escaped.push(error);
    process.on('uncaughtException', onError);
    process.on('unhandledRejection', onError);
    try {
      // The server's clock never moves: the call's deadline (10 minutes) can never end it, so
      // only the refusal of the message settles the call.
      const { client } = await setup({ clock: new ManualClock(1_000) });
      const log = new ExitLog();
      const tool = defineTool({
        name: 'crunch',
        description: 'A worker that posts { kind: "error" } with no error',
        input,
        run: workerHandler(fixture('malformed-worker.mjs'), {
          execArgv: SOURCE_EXEC_ARGV,
          workerData: 'error-without-error',
          onExit: log.onExit,
        }),
      });
      const { sessionId } = await client.sessions.create({
        customizations: { agentId: 'assistant', extensions: { tools: toolsToExtensions([tool]) } },
      });
      const result = await runToolLoop(client, {
        sessionId,
        content: '/tool crunch {"mode":"any"}\n/then Sorry, that tool is broken.',
        tools: [tool],
      });
      const message =
        'Tool "crunch": its worker sent a malformed message (an "error" message: it has no "error"); the worker was stopped';
      expect(result).toMatchObject({ status: 'done', finalText: 'Sorry, that tool is broken.' });
      const [failed] = result.steps[0]?.toolResults ?? [];
      expect(failed).toMatchObject({ status: 'ERROR', error: message });
      expect(await client.tools.get(sessionId, failed?.requestId ?? '')).toMatchObject({
        state: 'ERROR',
        error: message,
      });
      expect(await log.nth(1)).toMatchObject({ reason: 'failed', terminated: true });
      expect(escaped).toEqual([]);
    } finally {
      process.off('uncaughtException', onError);
      process.off('unhandledRejection', onError);
    }
  });
});
