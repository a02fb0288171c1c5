// Checked by `tsc -p packages/sdk` (the package's `typecheck`): the SDK's structural tracing types
// accept what `@opentelemetry/api` hands out, so `new Parley({ tracer })` compiles with a real
// tracer while the SDK's own declarations never name the package.
import { type Context, context, type Span, type Tracer, trace } from '@opentelemetry/api';
import { type ContextLike, Parley, type ParleyOptions, type SpanLike, type TracerLike } from '@parley/sdk';
import { expectTypeOf } from 'vitest';

expectTypeOf<Tracer>().toExtend<TracerLike>();
expectTypeOf<Span>().toExtend<SpanLike>();
expectTypeOf<Context>().toExtend<ContextLike>();
expectTypeOf(trace.getTracer('my-app')).toExtend<NonNullable<ParleyOptions['tracer']>>();
expectTypeOf<'global'>().toExtend<NonNullable<ParleyOptions['tracer']>>();

const client = new Parley({
  baseUrl: 'http://localhost:4010',
  token: 't',
  tracer: trace.getTracer('my-app'),
});
void client.sessions.list({ traceContext: trace.setSpan(context.active(), trace.getActiveSpan()!) });
// @ts-expect-error: a tracer provider is not a tracer (call its getTracer)
void new Parley({ baseUrl: 'http://localhost:4010', token: 't', tracer: trace.getTracerProvider() });
