import { endSpan, errorType, SPAN_KIND_INTERNAL } from '../../tracing/end-span.js';
import { contextWithSpan, resolveTracer } from '../../tracing/trace-context.js';
import type { ContextLike, TracerOption } from '../../tracing/tracer-like.js';
import type { PendingTool } from '../../wire/index.js';
import type { ToolRunResult } from './tool-run-result.js';
import type { ToolRequestOptions, ToolTransport } from './tool-transport.js';

/** What the span reads of `runTool`'s options. */
interface TracedRunOptions {
  sessionId: string;
  pending: Pick<PendingTool, 'requestId' | 'name'>;
  traceContext?: ContextLike | undefined;
  onHeartbeat?: ((beats: number) => void) | undefined;
  onHeartbeatError?: ((error: unknown) => void) | undefined;
}

/**
 * Runs one tool call inside its span, `execute_tool {name}` (the GenAI semantic conventions:
 * `gen_ai.operation.name`, `gen_ai.tool.name`, `gen_ai.tool.call.id` = the request id,
 * `gen_ai.tool.type`), with each heartbeat as a `parley.heartbeat` event (a failed one as
 * `parley.heartbeat.error`), the result's status as `parley.tool.status` (and its approval, if it
 * needed one: `parley.tool.approval`, `parley.tool.approved_by`), and an `ERROR` or `LOST`
 * result, or a failure, recorded as the span's error. The call's requests (heartbeats, the report)
 * are the span's children.
 */
export async function traceToolRun<O extends TracedRunOptions, R extends ToolRunResult>(
  tracerOption: TracerOption,
  transport: ToolTransport,
  options: O,
  run: (transport: ToolTransport, options: O) => Promise<R>,
): Promise<R> {
  const tracer = resolveTracer(tracerOption);
  if (!tracer) return run(transport, options);
  const { pending, onHeartbeat, onHeartbeatError } = options;
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
        'parley.session_id': options.sessionId,
      },
    },
    options.traceContext,
  );
  const traceContext = contextWithSpan(options.traceContext, span);
  const child = (o: ToolRequestOptions | undefined): ToolRequestOptions => ({ ...o, traceContext });
  const traced: ToolTransport = {
    heartbeat: (sessionId, requestId, o) => transport.heartbeat(sessionId, requestId, child(o)),
    respond: (sessionId, requestId, output, o) => transport.respond(sessionId, requestId, output, child(o)),
    fail: (sessionId, requestId, message, o) => transport.fail(sessionId, requestId, message, child(o)),
  };
  const observed: O = !span.isRecording()
    ? options
    : {
        ...options,
        onHeartbeat: (beats: number) => {
          span.addEvent('parley.heartbeat', { 'parley.heartbeat.beats': beats });
          onHeartbeat?.(beats);
        },
        onHeartbeatError: (error: unknown) => {
          const message = error instanceof Error ? error.message : String(error);
          span.addEvent('parley.heartbeat.error', {
            'error.type': errorType(error),
            'exception.message': message,
          });
          onHeartbeatError?.(error);
        },
      };
  try {
    const result = await run(traced, observed);
    const failed = result.status === 'ERROR' || result.status === 'LOST';
    const error = failed ? (result.cause instanceof Error ? result.cause : result.error) : undefined;
    endSpan(span, error, {
      'parley.tool.status': result.status,
      'parley.tool.approval': result.approval?.outcome,
      'parley.tool.approved_by': result.approval?.by,
    });
    return result;
  } catch (error) {
    endSpan(span, error);
    throw error;
  }
}
