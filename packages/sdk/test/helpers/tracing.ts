// Spans recorded in memory: the OpenTelemetry SDK's tracer with an in-memory exporter, as an app
// would configure it with an exporter of its own.
import { SpanKind, SpanStatusCode } from '@opentelemetry/api';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  type ReadableSpan,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base';

export { SpanKind, SpanStatusCode };

export function recordSpans() {
  const exporter = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  const tracer = provider.getTracer('test');
  return {
    provider,
    tracer,
    /** The spans ended so far, in the order they ended. */
    spans: (): ReadableSpan[] => exporter.getFinishedSpans(),
    /** The one ended span named `name`. */
    span(name: string): ReadableSpan {
      const found = exporter.getFinishedSpans().filter((s) => s.name === name);
      if (found.length !== 1) throw new Error(`${found.length} spans named ${name}`);
      return found[0] as ReadableSpan;
    },
  };
}

/** The ended spans whose parent is `parent`, in the order they ended. */
export function childrenOf(spans: readonly ReadableSpan[], parent: ReadableSpan): ReadableSpan[] {
  const id = parent.spanContext().spanId;
  return spans.filter((s) => s.parentSpanContext?.spanId === id);
}

/** The names of `spans`, sorted: children of one parent end in an order the test does not fix. */
export function names(spans: readonly ReadableSpan[]): string[] {
  return spans.map((s) => s.name).sort();
}
