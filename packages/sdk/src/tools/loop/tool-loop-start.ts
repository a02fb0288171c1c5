import { DEFAULT_MAX_STEPS, DEFAULT_TOOL_CONCURRENCY } from '../../defaults.js';
import { ToolNotDeclaredError } from '../../errors/index.js';
import { CallbackFailures } from '../../internal/callback-failures.js';
import { loadOnce } from '../../internal/load-once.js';
import { describeValue, wrongValue } from '../../internal/wrong-value.js';
import { ROOT_CONTEXT } from '../../tracing/root-context.js';
import type { ContextLike } from '../../tracing/tracer-like.js';
import type { AnyTool } from '../define/define-tool.js';
import type { RunToolLoopOptions, ToolLoopClient } from './tool-loop-options.js';
import type { ToolLoopResult, ToolLoopStep } from './tool-loop-run.js';
import { runToolLoopSteps } from './tool-loop-steps.js';

// The loop's spans, loaded with the first traced run.
const loadLoopTrace = loadOnce(() => import('./tool-loop-trace.js'));

/**
 * The body of a tool loop, loaded with its first run (`runToolLoop`): checks the options where the
 * loop uses them (a mistake rejects the run), then runs the steps, inside the run's span when
 * traced (a child of `parent`).
 */
export async function startToolLoop(
  client: ToolLoopClient,
  options: RunToolLoopOptions,
  parent: ContextLike | undefined,
  emit: (step: ToolLoopStep) => void,
  signal: AbortSignal,
): Promise<ToolLoopResult> {
  for (const name of ['reattach', 'resume'] as const) {
    if (options[name] !== undefined && typeof options[name] !== 'boolean') {
      throw wrongValue('runToolLoop()', name, 'a boolean', options[name]);
    }
  }
  if (options.repairToolInput !== undefined && typeof options.repairToolInput !== 'function') {
    throw wrongValue('runToolLoop()', 'repairToolInput', 'a function', options.repairToolInput);
  }
  // `resume: true` is the deprecated name of `reattach: true`.
  const reattach = options.reattach === true || options.resume === true;
  if (reattach && options.content !== undefined) {
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
  // A callback's failure after the run settled (a promise it returned rejects later) is reported.
  const failures = new CallbackFailures('runToolLoop');
  const config = { maxSteps, concurrency, tools, failures, reattach };
  const { tracer } = client;
  try {
    if (!tracer) return await runToolLoopSteps(client, options, config, emit, signal);
    const { ToolLoopTrace } = await loadLoopTrace();
    const start = { sessionId: options.sessionId, maxSteps, parent: parent ?? ROOT_CONTEXT };
    return await ToolLoopTrace.run(tracer, start, (trace) =>
      runToolLoopSteps(client, options, { ...config, trace }, emit, signal),
    );
  } finally {
    failures.end();
  }
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
