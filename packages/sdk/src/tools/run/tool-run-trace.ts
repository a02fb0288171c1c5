import { endSpan, errorType, SPAN_KIND_INTERNAL } from '../../tracing/end-span.js';
import { contextWithSpan, resolveTracer } from '../../tracing/trace-context.js';
import type { ContextLike, TracerOption } from '../../tracing/tracer-like.js';
import { withContext } from '../../tracing/with-context.js';
import type { PendingTool } from '../../wire/index.js';
import type { ToolRunResult } from './tool-run-result.js';
import type { ToolTransport } from './tool-transport.js';

/** The span of one tool run, as `runTool` drives it. */
export interface ToolRunSpan {
  /** Runs `fn` with the span's context active: what it starts (the handler's own spans too) is the span's child. */
  within<T>(fn: () => T): T;
  /**
   * `transport`, each of its requests (heartbeats, the report) sent with the span's context active:
   * they go out on timers and after `await`s, where a context manager that keeps a context only
   * while code runs synchronously would have lost it.
   */
  transport(transport: ToolTransport): ToolTransport;
  /** A successful heartbeat: a `parley.heartbeat` event. Undefined when the span records nothing. */
  beat: ((beats: number) => void) | undefined;
  /** A failed heartbeat: a `parley.heartbeat.error` event. Undefined when the span records nothing. */
  beatError: ((error: unknown) => void) | undefined;
  /** Ends the span with the run's result (`ERROR` and `LOST` as the span's error). */
  end(result: ToolRunResult): void;
  /** Ends the span with the run's failure. */
  fail(error: unknown): void;
}

/**
 * Starts one tool call's span, `execute_tool {name}` (the GenAI semantic conventions:
 * `gen_ai.operation.name`, `gen_ai.tool.name`, `gen_ai.tool.call.id` = the request id,
 * `gen_ai.tool.type`), with each heartbeat as a `parley.heartbeat` event (a failed one as
 * `parley.heartbeat.error`), the result's status as `parley.tool.status` (and its approval, if it
 * needed one: `parley.tool.approval`, `parley.tool.approved_by`), and an `ERROR` or `LOST`
 * result, or a failure, recorded as the span's error. A child of `parent`. Undefined when nothing
 * is traced (`'global'` with no provider registered).
 */
export function startToolRunSpan(
  tracerOption: TracerOption,
  call: { sessionId: string; pending: Pick<PendingTool, 'requestId' | 'name'> },
  parent: ContextLike,
): ToolRunSpan | undefined {
  const tracer = resolveTracer(tracerOption);
  if (!tracer) return undefined;
  const { pending } = call;
  const span = tracer.startSpan(
    `execute_tool ${pending.name}`,
    {
      kind: SPAN_KIND_INTERNAL,
      attributes: {
        'gen_ai.operation.name': 'execute_tool',
        'gen_ai.tool.name': pending.name,
        'gen_ai.tool.call.id': pending.requestId,
        // Run by the client, not by the service: the conventions' `function`.
        'gen_ai.tool.type': 'function',
        'parley.session_id': call.sessionId,
      },
    },
    parent,
  );
  const context = contextWithSpan(parent, span);
  const within = <T>(fn: () => T): T => withContext(context, fn);
  const recording = span.isRecording();
  return {
    within,
    transport: (transport) => ({
      heartbeat: (sessionId, requestId, o) => within(() => transport.heartbeat(sessionId, requestId, o)),
      respond: (sessionId, requestId, output, o) =>
        within(() => transport.respond(sessionId, requestId, output, o)),
      fail: (sessionId, requestId, message, o) =>
        within(() => transport.fail(sessionId, requestId, message, o)),
    }),
    beat: recording
      ? (beats) => span.addEvent('parley.heartbeat', { 'parley.heartbeat.beats': beats })
      : undefined,
    beatError: recording
      ? (error) =>
          span.addEvent('parley.heartbeat.error', {
            'error.type': errorType(error),
            'exception.message': error instanceof Error ? error.message : String(error),
          })
      : undefined,
    end(result) {
      const failed = result.status === 'ERROR' || result.status === 'LOST';
      const error = failed ? (result.cause instanceof Error ? result.cause : result.error) : undefined;
      endSpan(span, error, {
        'parley.tool.status': result.status,
        'parley.tool.approval': result.approval?.outcome,
        'parley.tool.approved_by': result.approval?.by,
      });
    },
    fail: (error) => endSpan(span, error),
  };
}
