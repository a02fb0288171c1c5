import { endSpan, SPAN_KIND_INTERNAL } from '../../tracing/end-span.js';
import { contextWithSpan, resolveTracer } from '../../tracing/trace-context.js';
import type {
  AttributesLike,
  ContextLike,
  SpanLike,
  TracerLike,
  TracerOption,
} from '../../tracing/tracer-like.js';
import { withContext } from '../../tracing/with-context.js';
import type { MessageReply } from '../../wire/index.js';
import type { ToolLoopResult, ToolLoopStep } from './tool-loop-run.js';

/**
 * The spans of one tool loop: the run (`parley.tool_loop`) and, inside it, one per step
 * (`parley.tool_loop.step`), whose children are the step's request (or stream) and tool runs: they
 * start inside {@link ToolLoopTrace.within}, and take their parent from the active context.
 */
export class ToolLoopTrace {
  /** The tracer the steps record on (`'global'` resolved once, at the start). */
  readonly #tracer: TracerLike;
  /** The run's context: its span's. */
  readonly #context: ContextLike;
  #step: { span: SpanLike; context: ContextLike } | undefined;

  private constructor(tracer: TracerLike, context: ContextLike) {
    this.#tracer = tracer;
    this.#context = context;
  }

  /**
   * Runs the loop `run` inside the run's span, a child of `start.parent`, which ends with its
   * result or its error. Without a tracer (`'global'` and no provider registered) the loop runs as
   * it is.
   */
  static async run(
    tracerOption: TracerOption,
    start: { sessionId: string; maxSteps: number; parent: ContextLike },
    run: (trace: ToolLoopTrace | undefined) => Promise<ToolLoopResult>,
  ): Promise<ToolLoopResult> {
    const tracer = resolveTracer(tracerOption);
    if (!tracer) return run(undefined);
    const attributes = { 'parley.session_id': start.sessionId, 'parley.tool_loop.max_steps': start.maxSteps };
    const span = tracer.startSpan('parley.tool_loop', { kind: SPAN_KIND_INTERNAL, attributes }, start.parent);
    const trace = new ToolLoopTrace(tracer, contextWithSpan(start.parent, span));
    try {
      const result = await withContext(trace.#context, () => run(trace));
      endSpan(span, undefined, {
        'parley.tool_loop.status': result.status,
        'parley.tool_loop.steps': result.steps.length,
        'parley.stop_reason': result.stopReason,
        'gen_ai.usage.input_tokens': result.usage.inputTokens,
        'gen_ai.usage.output_tokens': result.usage.outputTokens,
        'parley.cost': result.cost,
      });
      return result;
    } catch (error) {
      if (trace.#step) endSpan(trace.#step.span, error);
      endSpan(span, error);
      throw error;
    }
  }

  /** Starts step `step`'s span, a child of the run's. */
  startStep(step: number): void {
    const attributes = { 'parley.tool_loop.step': step };
    const span = this.#tracer.startSpan(
      'parley.tool_loop.step',
      { kind: SPAN_KIND_INTERNAL, attributes },
      this.#context,
    );
    this.#step = { span, context: contextWithSpan(this.#context, span) };
  }

  /**
   * Runs `fn` with the current step's context active (the run's before the first step): what it
   * starts is the step's child. The loop calls it around each start of a request or tool run, as
   * a context manager may keep a context only while code runs synchronously.
   */
  within<T>(fn: () => T): T {
    return withContext(this.#step?.context ?? this.#context, fn);
  }

  /** Ends the step's span, its tools settled. */
  endStep({ reply, toolResults, cost }: ToolLoopStep): void {
    if (!this.#step) return;
    endSpan(this.#step.span, undefined, {
      ...replyAttributes(reply, toolResults.length),
      'parley.cost': cost,
    });
    this.#step = undefined;
  }
}

function replyAttributes(reply: MessageReply, toolCalls: number): AttributesLike {
  return {
    'parley.stop_reason': reply.stopReason,
    'parley.tool_calls': toolCalls,
    'gen_ai.usage.input_tokens': reply.usage?.inputTokens,
    'gen_ai.usage.output_tokens': reply.usage?.outputTokens,
  };
}
