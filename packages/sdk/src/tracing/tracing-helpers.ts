// The tracing code of requests and streams, which the client loads when it has a tracer (see
// load-tracing-helpers.ts): an app that traces nothing never downloads it.
export { startStreamSpan } from './stream-span.js';
export { traceRequest } from './trace-request.js';
