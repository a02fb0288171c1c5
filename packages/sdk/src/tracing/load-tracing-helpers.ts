import type * as TracingHelpers from './tracing-helpers.js';

let loading: Promise<typeof TracingHelpers> | undefined;

/**
 * The spans of requests and streams, loaded when a client with a tracer first sends: a dynamic
 * import, so that an app without a tracer does not download them where its bundler splits code
 * at dynamic imports. The promise is kept: later calls skip the module loader.
 */
export function loadTracingHelpers(): Promise<typeof TracingHelpers> {
  loading ??= import('./tracing-helpers.js');
  return loading;
}
