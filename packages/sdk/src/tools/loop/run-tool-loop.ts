import { loadOnce } from '../../internal/load-once.js';
import { warnUnknownOptions } from '../../internal/unknown-options.js';
import { checkId } from '../../internal/wrong-value.js';
import { activeContext } from '../../tracing/active-context.js';
import type { RunToolLoopOptions, ToolLoopClient } from './tool-loop-options.js';
import { ToolLoopRun } from './tool-loop-run.js';

export type {
  RunToolLoopOptions,
  ToolLoopClient,
  ToolLoopSendOptions,
  ToolLoopStream,
} from './tool-loop-options.js';

// The loop's body (its checks, the steps with `runTool` and the heartbeat), loaded with the first run.
const loadToolLoop = loadOnce(() => import('./tool-loop-start.js'));

/**
 * Sends the user's turn and keeps the conversation going until the model stops asking for tools:
 * each reply's pending tool calls run in parallel (at most `concurrency` at once, each with its
 * automatic heartbeat, see `runTool`), are settled, and the conversation is resumed. Stops after
 * `maxSteps` replies with `status: 'max_steps'`. Returns a {@link ToolLoopRun}: await it for the
 * result or iterate it for each step.
 *
 * @example
 * const run = runToolLoop(client, { sessionId, content: 'Weather in Paris?', tools: [getWeather] });
 * for await (const step of run) console.log(step.step, step.toolResults.map((r) => r.status));
 * const { status, finalText } = await run;
 */
export function runToolLoop(client: ToolLoopClient, options: RunToolLoopOptions): ToolLoopRun {
  warnUnknownOptions(options, 'runToolLoop()');
  checkId(options?.sessionId, 'runToolLoop()', 'sessionId');
  // The run's span is a child of `traceContext`, else of the context active as the run is made.
  const parent = client.tracer && (options.traceContext ?? activeContext());
  return new ToolLoopRun(async (emit, signal) => {
    const { startToolLoop } = await loadToolLoop();
    return startToolLoop(client, options, parent, emit, signal);
  }, options.signal);
}
