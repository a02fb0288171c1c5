// Checked by `tsc -p packages/sdk` (the package's `typecheck`).
import { defineTool, type Parley, type ToolObject, type ToolRunResult } from '@parley/sdk';
import { runTool } from '@parley/sdk/tools';
import { expectTypeOf } from 'vitest';
import { z } from 'zod';

declare const client: Parley;
declare const pending: { requestId: string; name: string; input: Record<string, unknown> };

const withOutput = defineTool({
  name: 'get_weather',
  description: 'Weather for a city',
  input: z.object({ city: z.string() }),
  output: z.object({ temperature: z.number(), unit: z.enum(['C', 'F']).default('C') }),
  run: ({ city }) => ({ temperature: city.length }),
});
const withoutOutput = defineTool({
  name: 'ping',
  description: 'Ping',
  input: z.object({}),
  run: () => ({ pong: true }),
});

{
  const result = await runTool(client, { sessionId: 's', pending, tool: withOutput });
  // @ts-expect-error `output` is only certain after checking the status
  const early: { temperature: number } = result.output;
  void early;
  if (result.status === 'COMPLETE') {
    // Typed from the output schema (its parsed side: the default applied).
    expectTypeOf(result.output).toEqualTypeOf<{ temperature: number; unit: 'C' | 'F' }>();
    expectTypeOf(result.error).toEqualTypeOf<undefined>();
  } else {
    expectTypeOf(result.error).toEqualTypeOf<string>();
    expectTypeOf(result.output).toEqualTypeOf<undefined>();
  }
  if (result.status === 'LOST')
    expectTypeOf(result.cause.reason).toEqualTypeOf<'ABANDONED' | 'NOT_FOUND' | 'TIMED_OUT' | 'LEASED'>();
}

{
  const result = await client.tools.run('s', pending, withoutOutput);
  if (result.status === 'COMPLETE') expectTypeOf(result.output).toEqualTypeOf<ToolObject>();
}

{
  // The loop mixes tools: its results narrow on status, outputs are objects.
  const run = await client.runToolLoop({ sessionId: 's', tools: [withOutput, withoutOutput] });
  for (const step of run.steps) {
    for (const result of step.toolResults) {
      expectTypeOf(result).toEqualTypeOf<ToolRunResult>();
      if (result.status === 'COMPLETE') expectTypeOf(result.output).toEqualTypeOf<ToolObject>();
    }
  }
}
