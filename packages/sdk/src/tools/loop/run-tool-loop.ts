import { DEFAULT_MAX_STEPS, DEFAULT_TOOL_CONCURRENCY } from '../../defaults.js';
import { ToolNotDeclaredError } from '../../errors/index.js';
import { loadOnce } from '../../internal/load-once.js';
import { checkId, checkOptions, describeValue } from '../../internal/option-check.js';
import { RECOVER_OPTION_KEYS } from '../../recovery/recover-options.js';
import { activeContext } from '../../tracing/active-context.js';
import type { AnyTool } from '../define/define-tool.js';
import {
  RUN_TOOL_LOOP_OPTION_KEYS,
  type RunToolLoopOptions,
  type ToolLoopClient,
} from './tool-loop-options.js';
import { ToolLoopRun } from './tool-loop-run.js';

export type {
  RunToolLoopOptions,
  ToolLoopClient,
  ToolLoopSendOptions,
  ToolLoopStream,
} from './tool-loop-options.js';

// The loop's body (with `runTool` and the heartbeat), loaded with the first run; its spans, with
// the first traced run.
const loadLoopSteps = loadOnce(() => import('./tool-loop-steps.js'));
const loadLoopTrace = loadOnce(() => import('./tool-loop-trace.js'));

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
  checkOptions(options, RUN_TOOL_LOOP_OPTION_KEYS, 'runToolLoop()');
  checkId(options?.sessionId, 'runToolLoop()', 'sessionId');
  if (typeof options.recover === 'object') {
    checkOptions(options.recover, RECOVER_OPTION_KEYS, 'runToolLoop() recover');
  }
  if (isReattach(options) && options.content !== undefined) {
    throw new TypeError('runToolLoop: reattach takes no content (the turn is in the session already)');
  }
  if (
    options.model !== undefined &&
    options.priceModel !== undefined &&
    options.model !== options.priceModel
  ) {
    throw new TypeError(
      `runToolLoop: priceModel "${options.priceModel}" and its deprecated name model "${options.model}" disagree: pass priceModel only`,
    );
  }
  const maxSteps = atLeastOne('maxSteps', options.maxSteps ?? DEFAULT_MAX_STEPS);
  const concurrency = atLeastOne('concurrency', options.concurrency ?? DEFAULT_TOOL_CONCURRENCY);
  const { maxBodyBytes } = options;
  if (maxBodyBytes !== undefined && !(maxBodyBytes > 0)) {
    throw new RangeError(
      `runToolLoop: maxBodyBytes must be a positive number of bytes, got ${describeValue(maxBodyBytes)}`,
    );
  }
  const tools = new Map<string, AnyTool>();
  for (const tool of loopTools(client, options)) {
    if (tools.has(tool.name)) throw new TypeError(`runToolLoop: duplicate tool name "${tool.name}"`);
    tools.set(tool.name, tool);
  }
  const config = { maxSteps, concurrency, tools, reattach: isReattach(options) };
  const { tracer } = client;
  // The run's span is a child of `traceContext`, else of the context active as the run is made.
  const parent = tracer && (options.traceContext ?? activeContext());
  return new ToolLoopRun(async (emit, signal) => {
    const { runToolLoopSteps } = await loadLoopSteps();
    if (!tracer || !parent) return runToolLoopSteps(client, options, config, emit, signal);
    const { ToolLoopTrace } = await loadLoopTrace();
    return ToolLoopTrace.run(tracer, { sessionId: options.sessionId, maxSteps, parent }, (trace) =>
      runToolLoopSteps(client, options, { ...config, trace }, emit, signal),
    );
  }, options.signal);
}

/** `reattach: true`, or its deprecated name `resume: true`. */
function isReattach(options: RunToolLoopOptions): boolean {
  return options.reattach === true || options.resume === true;
}

function atLeastOne(name: string, value: number): number {
  if (!Number.isInteger(value) || value < 1) {
    throw new RangeError(`runToolLoop: ${name} must be an integer >= 1, got ${describeValue(value)}`);
  }
  return value;
}

/**
 * The loop's tools: `options.tools`, else the ones the session was created with. Given tools must be
 * declared on the session when the client knows all its client tools: the model could never call
 * the others, and a run that silently never uses a tool is worse than an error.
 */
function loopTools(client: ToolLoopClient, options: RunToolLoopOptions): readonly AnyTool[] {
  const declared = client.sessions?.declaredTools?.(options.sessionId);
  if (options.tools === undefined) {
    if (declared && declared.tools.length > 0) return declared.tools;
    throw new TypeError(
      `runToolLoop: no tools for session ${options.sessionId}: pass tools, or create the session ` +
        'with client.sessions.create({ tools }) on this client',
    );
  }
  if (declared?.exhaustive) {
    const missing = options.tools.filter((tool) => !declared.names.includes(tool.name)).map((t) => t.name);
    if (missing.length > 0) {
      throw new ToolNotDeclaredError({
        sessionId: options.sessionId,
        toolNames: missing,
        declared: declared.names,
      });
    }
  }
  return options.tools;
}
