import { defineTool, runToolLoop, ToolCallLostError, toolsToExtensions } from '@parley/sdk';
import { runTool } from '@parley/sdk/tools';
import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { resultFor, textOf } from './assertions.js';
import { capabilities, NEEDS_DIRECTIVES, NEEDS_INTERNALS, targets, useTarget } from './target.js';

const getWeather = defineTool({
  name: 'get_weather',
  description: 'Current weather of a city.',
  input: z.object({ city: z.string() }),
  output: z.object({ tempC: z.number(), city: z.string() }),
  run: ({ city }) => ({ tempC: city === 'Paris' ? 18 : 21, city }),
});

describe.each(targets())('tool helpers end to end [%s]', (mode) => {
  const target = useTarget(mode);
  const caps = capabilities(mode);

  describe.runIf(caps.directives)(NEEDS_DIRECTIVES, () => {
    it('runTool heartbeats while the handler runs, then submits the output; the model gets it on resume', async () => {
      const { clientA } = target;
      const { sessionId } = await clientA.sessions.create({
        customizations: { extensions: { tools: toolsToExtensions([getWeather]) } },
      });
      const reply = await clientA.messages.send(sessionId, { content: '/tool get_weather {"city":"Paris"}' });
      const pending = reply.pendingTools[0];
      if (!pending) throw new Error('no pending tool');
      const statesSeen: string[] = [];
      const watched = defineTool({
        name: 'get_weather',
        description: 'Current weather of a city, watching its own lease.',
        input: z.object({ city: z.string() }),
        async run({ city }, ctx) {
          // The first beat goes out at once, beside the handler: wait until the server has it.
          await vi.waitFor(
            async () => {
              const call = await clientA.tools.get(ctx.sessionId, ctx.requestId);
              statesSeen.push(call.state);
              expect(call.state).toBe('PROCESSING');
            },
            { timeout: 2_000, interval: 5 },
          );
          return { tempC: 18, city };
        },
      });
      const result = await runTool(clientA, {
        sessionId,
        pending,
        tool: watched,
        heartbeatTimeoutMs: reply.heartbeatTimeoutMs,
      });
      expect(result).toMatchObject({ status: 'COMPLETE', output: { tempC: 18, city: 'Paris' } });
      expect(statesSeen.at(-1)).toBe('PROCESSING');
      const call = await clientA.tools.get(sessionId, pending.requestId);
      expect(call).toMatchObject({ state: 'COMPLETE', lastHeartbeatAt: expect.any(Number) });

      const resumed = await clientA.messages.send(sessionId, {});
      expect(resultFor(resumed.messages[0], pending.requestId)).toMatchObject({
        is_error: false,
        content: [{ type: 'json', json: { tempC: 18, city: 'Paris' } }],
      });
    });

    it('runTool reports a thrown error as ERROR, which the model sees', async () => {
      const { clientA } = target;
      const { sessionId } = await clientA.sessions.create();
      const reply = await clientA.messages.send(sessionId, {
        content: '/tool get_weather {"city":"Atlantis"}',
      });
      const pending = reply.pendingTools[0];
      if (!pending) throw new Error('no pending tool');
      const failing = defineTool({
        name: 'get_weather',
        description: 'Fails for unknown cities.',
        input: z.object({ city: z.string() }),
        run: ({ city }) => {
          throw new Error(`Unknown city ${city}`);
        },
      });
      const result = await runTool(clientA, {
        sessionId,
        pending,
        tool: failing,
        heartbeatTimeoutMs: 15_000,
      });
      expect(result).toMatchObject({ status: 'ERROR', error: 'Unknown city Atlantis' });
      expect(await clientA.tools.get(sessionId, pending.requestId)).toMatchObject({
        state: 'ERROR',
        error: 'Unknown city Atlantis',
      });
    });

    it('runTool on a call another worker already settled ends ALREADY_SETTLED (first terminal write wins)', async () => {
      const { clientA } = target;
      const { sessionId } = await clientA.sessions.create();
      const reply = await clientA.messages.send(sessionId, { content: '/tool get_weather {"city":"Paris"}' });
      const pending = reply.pendingTools[0];
      if (!pending) throw new Error('no pending tool');
      const slow = defineTool({
        name: 'get_weather',
        description: 'Settled by someone else meanwhile.',
        input: z.object({ city: z.string() }),
        async run({ city }, ctx) {
          await clientA.tools.respond(ctx.sessionId, ctx.requestId, { tempC: 1, city: 'other worker' });
          return { tempC: 18, city };
        },
      });
      const result = await runTool(clientA, { sessionId, pending, tool: slow, heartbeatTimeoutMs: 15_000 });
      expect(result.status).toBe('ALREADY_SETTLED');
      const call = await clientA.tools.get(sessionId, pending.requestId);
      expect(call.state).toBe('COMPLETE');
      const resumed = await clientA.messages.send(sessionId, {});
      expect(resultFor(resumed.messages[0], pending.requestId).content).toEqual([
        { type: 'json', json: { tempC: 1, city: 'other worker' } },
      ]);
    });

    for (const stream of [false, true]) {
      it(`runToolLoop completes a two-step conversation (${stream ? 'streamed' : 'buffered'})`, async () => {
        const { clientA } = target;
        const { sessionId } = await clientA.sessions.create({
          customizations: { extensions: { tools: toolsToExtensions([getWeather]) } },
        });
        const texts: string[] = [];
        const result = await runToolLoop(clientA, {
          sessionId,
          content: '/say Let me check.\n/tool get_weather {"city":"Paris"}\n/then It is 18 degrees in Paris.',
          tools: [getWeather],
          stream,
          ...(stream ? { onText: (delta: string) => texts.push(delta) } : {}),
        });
        expect(result.status).toBe('done');
        expect(result.steps).toHaveLength(2);
        expect(result.steps[0]?.toolResults).toMatchObject([{ name: 'get_weather', status: 'COMPLETE' }]);
        expect(result.finalText).toBe('It is 18 degrees in Paris.');
        expect(result.stopReason).toBe('end_turn');
        if (stream) expect(texts.join('')).toContain('It is 18 degrees in Paris.');
        // The loop's messages are the session's conversation.
        expect(result.messages).toEqual(await clientA.messages.export(sessionId));
      });
    }

    it('runToolLoop answers a call for an unknown tool with an ERROR the model sees', async () => {
      const { clientA } = target;
      const { sessionId } = await clientA.sessions.create();
      const result = await runToolLoop(clientA, {
        sessionId,
        content: '/tool mystery {}',
        tools: [getWeather],
      });
      expect(result.status).toBe('done');
      const [first, second] = result.steps;
      expect(first?.toolResults).toMatchObject([{ name: 'mystery', status: 'ERROR' }]);
      expect(first?.toolResults[0]?.error).toContain('get_weather');
      const requestId = first?.reply.pendingTools[0]?.requestId ?? '';
      expect((await clientA.tools.get(sessionId, requestId)).state).toBe('ERROR');
      const answered = resultFor(second?.reply.messages[0], requestId);
      expect(answered.is_error).toBe(true);
      expect(JSON.stringify(answered.content)).toContain('Unknown tool');
      expect(textOf(second?.reply.messages.at(-1))).toContain('mystery');
    });
  });

  describe.runIf(caps.internals)(NEEDS_INTERNALS, () => {
    it('runTool stops the handler and reports nothing when its call is abandoned (heartbeat 409)', async () => {
      const { clientA, clock } = target;
      if (!clock) throw new Error('needs the clock');
      const { sessionId } = await clientA.sessions.create();
      const reply = await clientA.messages.send(sessionId, { content: '/tool get_weather {"city":"Paris"}' });
      const pending = reply.pendingTools[0];
      if (!pending) throw new Error('no pending tool');
      let abortReason: unknown;
      const stuck = defineTool({
        name: 'get_weather',
        description: 'Never finishes on its own.',
        input: z.object({ city: z.string() }),
        async run(_input, ctx) {
          // Past the deadline the next beat gets 409 and the handler's signal aborts.
          await clock.set(pending.deadlineAt + 1);
          await new Promise<void>((resolve) => ctx.signal.addEventListener('abort', () => resolve()));
          abortReason = ctx.signal.reason;
          return { tempC: 0, city: 'never sent' };
        },
      });
      // A short timeout keeps the beat interval at its 250 ms minimum.
      const result = await runTool(clientA, { sessionId, pending, tool: stuck, heartbeatTimeoutMs: 750 });
      expect(result.status).toBe('LOST');
      expect(result.cause instanceof ToolCallLostError).toBe(true);
      expect(result.cause).toMatchObject({ reason: 'ABANDONED', requestId: pending.requestId });
      expect(abortReason instanceof ToolCallLostError).toBe(true);
      expect(await clientA.tools.get(sessionId, pending.requestId)).toMatchObject({ state: 'ABANDONED' });
    });
  });
});
