// Budgets of runToolLoop: stop conditions on the usage and the cost summed over the loop, and the
// price table that puts `cost` on each step, the result and the spans. Against scripted turns
// (the scripted model reports usage from its word counts) and replayed from a cassette whose
// turns carry the usage a real deployment reported.
import { createReferenceServer, type ReferenceServerOptions, turn } from '@parley/reference-server';
import { defineTool, Parley, stepCountIs, type ToolLoopStep } from '@parley/sdk';
import { costAtLeast, usageAtLeast } from '@parley/sdk/tools';
import { describe, expect, test } from 'vitest';
import { z } from 'zod';
import { recordSpans } from '../../helpers/tracing.js';

function setup(options: ReferenceServerOptions = {}, tracer?: ReturnType<typeof recordSpans>['tracer']) {
  const server = createReferenceServer(options);
  const client = new Parley({
    baseUrl: 'http://parley.test',
    token: 'parley-demo-token',
    fetch: (input, init) => server.fetch(new Request(input, init)),
    ...(tracer === undefined ? {} : { tracer }),
  });
  return { server, client };
}

const search = defineTool({
  name: 'search',
  description: 'Searches the web',
  input: z.object({ q: z.string() }),
  run: () => ({ hits: 1 }),
});

const PRICES = { 'model-x': { inputPerMTok: 3, outputPerMTok: 15 } };

/** Three tool-calling turns then an answer, each reporting 1,000 x n input and 20,000 output tokens. */
function recordedCassette() {
  const toolTurn = (n: number) => ({
    input:
      n === 1
        ? { user: [{ type: 'text' as const, text: 'Plan the trip.' }] }
        : {
            toolResults: [
              {
                type: 'tool_result' as const,
                tool_use_id: `tooluse_${n - 1}`,
                content: [{ type: 'json' as const, json: { hits: 1 } }],
                is_error: false,
              },
            ],
          },
    content: [{ type: 'tool_use' as const, id: `tooluse_${n}`, name: 'search', input: { q: `leg ${n}` } }],
    stopReason: 'tool_use' as const,
    usage: { inputTokens: 1_000 * n, outputTokens: 20_000, totalTokens: 1_000 * n + 20_000 },
  });
  return {
    format: 'parley-cassette' as const,
    version: 2 as const,
    sessions: [
      {
        customizations: null,
        turns: [
          toolTurn(1),
          toolTurn(2),
          toolTurn(3),
          {
            input: {
              toolResults: [
                {
                  type: 'tool_result' as const,
                  tool_use_id: 'tooluse_3',
                  content: [{ type: 'json' as const, json: { hits: 1 } }],
                  is_error: false,
                },
              ],
            },
            content: [{ type: 'text' as const, text: 'Here is the plan.' }],
            stopReason: 'end_turn' as const,
            usage: { inputTokens: 4_000, outputTokens: 500, totalTokens: 4_500 },
          },
        ],
      },
    ],
  };
}

function summed(steps: readonly ToolLoopStep[], field: 'inputTokens' | 'outputTokens') {
  return steps.reduce((total, step) => total + (step.reply.usage?.[field] ?? 0), 0);
}

describe('usage budgets (scripted turns)', () => {
  test('usageAtLeast stops the loop after the step whose reply brings the summed usage to the limit', async () => {
    const { server, client } = setup();
    server.script([
      turn.toolUse('search', { q: 'one two three four five' }),
      turn.toolUse('search', { q: 'six seven eight nine ten' }),
      turn.toolUse('search', { q: 'eleven twelve' }),
      turn.text('Done.'),
    ]);
    const { sessionId } = await client.sessions.create();
    const first = await client.runToolLoop({
      sessionId,
      content: 'Go',
      tools: [search],
      stopWhen: stepCountIs(1),
    });
    const perStep = first.steps[0]?.reply.usage?.outputTokens ?? 0;
    expect(perStep).toBeGreaterThan(0);

    server.script([
      turn.toolUse('search', { q: 'one two three four five' }),
      turn.toolUse('search', { q: 'six seven eight nine ten' }),
      turn.toolUse('search', { q: 'eleven twelve' }),
      turn.text('Done.'),
    ]);
    const { sessionId: second } = await client.sessions.create();
    const limit = perStep + 1;
    const result = await client.runToolLoop({
      sessionId: second,
      content: 'Go',
      tools: [search],
      stopWhen: usageAtLeast({ outputTokens: limit }),
    });
    expect(result.status).toBe('stopped');
    expect(result.stopped).toEqual({
      by: 'stopWhen',
      reason: `usageAtLeast({"outputTokens":${limit}})`,
      step: 2,
    });
    expect(summed(result.steps.slice(0, 1), 'outputTokens')).toBeLessThan(limit);
    expect(result.usage.outputTokens).toBe(summed(result.steps, 'outputTokens'));
    expect(result.usage.outputTokens).toBeGreaterThanOrEqual(limit);
    // Nothing is left open: the stopping step's calls are settled.
    expect(result.steps[1]?.toolResults.map((r) => r.status)).toEqual(['COMPLETE']);
  });

  test('prices put the cost of each reply on its step and the sum on the result', async () => {
    const { server, client } = setup();
    server.script([turn.toolUse('search', { q: 'a b c' }), turn.text('All done now.')]);
    const { sessionId } = await client.sessions.create();
    const result = await client.runToolLoop({ sessionId, content: 'Go', tools: [search], prices: PRICES });
    expect(result.status).toBe('done');
    for (const step of result.steps) {
      const usage = step.reply.usage;
      expect(step.cost).toBeCloseTo(
        ((usage?.inputTokens ?? 0) * 3 + (usage?.outputTokens ?? 0) * 15) / 1e6,
        12,
      );
    }
    expect(result.cost).toBeCloseTo((result.steps[0]?.cost ?? 0) + (result.steps[1]?.cost ?? 0), 12);
  });

  test('without prices no step has a cost, and costAtLeast rejects the run naming what it needs', async () => {
    const { server, client } = setup();
    server.script([turn.toolUse('search', { q: 'a' }), turn.text('Done.')]);
    const { sessionId } = await client.sessions.create();
    const plain = await client.runToolLoop({
      sessionId,
      content: 'Go',
      tools: [search],
      stopWhen: stepCountIs(1),
    });
    expect(plain.steps[0]?.cost).toBeUndefined();
    expect(plain.cost).toBeUndefined();

    server.script([turn.toolUse('search', { q: 'a' }), turn.text('Done.')]);
    const { sessionId: second } = await client.sessions.create();
    const run = client.runToolLoop({
      sessionId: second,
      content: 'Go',
      tools: [search],
      stopWhen: costAtLeast(1),
    });
    await expect(run).rejects.toThrow('costAtLeast(1) needs runToolLoop({ prices }): the steps have no cost');
  });

  test('a price table the loop cannot use fails the run at its start, naming the problem', async () => {
    const { client } = setup();
    const { sessionId } = await client.sessions.create();
    const two = { a: { inputPerMTok: 1, outputPerMTok: 2 }, b: { inputPerMTok: 1, outputPerMTok: 2 } };
    await expect(
      client.runToolLoop({ sessionId, content: 'Go', tools: [search], prices: two }),
    ).rejects.toThrow(
      'runToolLoop: prices has 2 models (a, b): name the one this loop is priced at with priceModel',
    );
    await expect(
      client.runToolLoop({ sessionId, content: 'Go', tools: [search], prices: two, priceModel: 'c' }),
    ).rejects.toThrow('runToolLoop: prices has no entry "c" (priceModel; it has a, b)');
    await expect(
      client.runToolLoop({
        sessionId,
        content: 'Go',
        tools: [search],
        prices: { a: { inputPerMTok: -1, outputPerMTok: 2 } },
      }),
    ).rejects.toThrow('runToolLoop: prices["a"].inputPerMTok must be a number >= 0, got -1');
  });

  test('priceModel picks the entry of prices; model, its deprecated name, still does; the two disagreeing rejects the run with a TypeError', async () => {
    const { client } = setup();
    const { sessionId } = await client.sessions.create();
    const two = {
      cheap: { inputPerMTok: 0, outputPerMTok: 0 },
      dear: { inputPerMTok: 1e6, outputPerMTok: 1e6 },
    };
    const picked = await client.runToolLoop({
      sessionId,
      content: 'Go',
      tools: [search],
      prices: two,
      priceModel: 'dear',
    });
    expect(picked.cost).toBeGreaterThan(0);
    const { sessionId: other } = await client.sessions.create();
    const old = await client.runToolLoop({
      sessionId: other,
      content: 'Go',
      tools: [search],
      prices: two,
      model: 'cheap',
    });
    expect(old.cost).toBe(0);
    await expect(
      client.runToolLoop({
        sessionId,
        content: 'Go',
        tools: [search],
        prices: two,
        priceModel: 'dear',
        model: 'cheap',
      }),
    ).rejects.toThrow(
      new TypeError(
        'runToolLoop: priceModel "dear" and its deprecated name model "cheap" disagree: pass priceModel only',
      ),
    );
  });

  test('usageAtLeast refuses limits no usage can meet', () => {
    expect(() => usageAtLeast({})).toThrow('usageAtLeast: give at least one limit');
    expect(() => usageAtLeast({ outputTokens: 0 })).toThrow(
      'usageAtLeast: outputTokens must be a number > 0, got 0',
    );
    // @ts-expect-error: a plain-JavaScript mistake
    expect(() => usageAtLeast({ outputTokenz: 5 })).toThrow(
      'usageAtLeast: unknown usage field "outputTokenz"',
    );
    expect(() => costAtLeast(0)).toThrow('costAtLeast: amount must be a number > 0, got 0');
  });
});

describe('usage budgets (replayed from a cassette)', () => {
  test('usageAtLeast({ outputTokens: 50_000 }) stops after the third recorded turn, at 60,000 output tokens', async () => {
    const { client } = setup({ replay: recordedCassette() });
    const { sessionId } = await client.sessions.create();
    const result = await client.runToolLoop({
      sessionId,
      content: 'Plan the trip.',
      tools: [search],
      stopWhen: usageAtLeast({ outputTokens: 50_000 }),
    });
    expect(result.status).toBe('stopped');
    expect(result.stopped?.step).toBe(3);
    expect(result.usage).toEqual({ inputTokens: 6_000, outputTokens: 60_000, totalTokens: 66_000 });
  });

  test('costAtLeast stops on the cost the price table gives the recorded usage, and the spans carry it', async () => {
    const { tracer, spans } = recordSpans();
    const { client } = setup({ replay: recordedCassette() }, tracer);
    const { sessionId } = await client.sessions.create();
    const result = await client.runToolLoop({
      sessionId,
      content: 'Plan the trip.',
      tools: [search],
      prices: PRICES,
      stopWhen: costAtLeast(0.6),
    });
    // 1,000 x $3 + 20,000 x $15 per million: $0.303, then $0.306: $0.609 after step 2.
    expect(result.steps.map((s) => s.cost)).toEqual([0.303, 0.306]);
    expect(result.cost).toBeCloseTo(0.609, 12);
    expect(result.stopped).toEqual({ by: 'stopWhen', reason: 'costAtLeast(0.6)', step: 2 });
    const costs = spans()
      .filter((span) => span.name.startsWith('parley.tool_loop'))
      .map((span) => [span.name, span.attributes['parley.cost']]);
    expect(costs).toEqual([
      ['parley.tool_loop.step', 0.303],
      ['parley.tool_loop.step', 0.306],
      ['parley.tool_loop', result.cost],
    ]);
  });
});
