import type { EnvironmentContext, JestEnvironmentConfig } from '@jest/environment';
import { TestEnvironment as JSDOMEnvironment } from 'jest-environment-jsdom';
// No extension: Jest loads an environment with Node's require outside its module map, where the
// sources' `.js` spelling of a `.ts` file does not resolve (the built package bundles it anyway).
import { noteJestEvent } from './adapters/jest-outcomes';
import type { JestEvent } from './jest-environment';

/**
 * What jsdom lacks or has in a shape Node's `fetch` refuses: the fetch API, streams, encoders,
 * and the abort signal Node's `fetch` checks (jsdom's own one is refused: "Expected signal to be an
 * instance of AbortSignal").
 */
export const NODE_GLOBALS = [
  'fetch',
  'Request',
  'Response',
  'Headers',
  'FormData',
  'Blob',
  'File',
  'ReadableStream',
  'WritableStream',
  'TransformStream',
  'TextEncoder',
  'TextDecoder',
  'TextEncoderStream',
  'TextDecoderStream',
  'AbortController',
  'AbortSignal',
  'structuredClone',
  'BroadcastChannel',
  'MessageChannel',
  'setImmediate',
  'clearImmediate',
  'URL',
  'URLSearchParams',
] as const;

/**
 * Jest's `jsdom` environment with Node's `fetch`, `Request`, `Response`, streams, `TextEncoder` and
 * `AbortController` put back, so the reference server and an SDK run inside it, which also tells
 * `useReferenceServer` which tests failed (as `@parley/reference-server/jest-environment`): set
 * `testEnvironment: '@parley/reference-server/jest-environment-jsdom'` (needs `jest-environment-jsdom`).
 */
export default class ParleyJsdomEnvironment extends JSDOMEnvironment {
  constructor(config: JestEnvironmentConfig, context: EnvironmentContext) {
    super(config, context);
    const target: Record<string, unknown> = this.global;
    const source: Record<string, unknown> = globalThis;
    for (const name of NODE_GLOBALS) if (source[name] !== undefined) target[name] = source[name];
  }

  /** Tells `useReferenceServer` which tests failed or were skipped (see `@parley/reference-server/jest-environment`). */
  handleTestEvent(event: JestEvent): void {
    noteJestEvent(this.global, event);
  }
}

export { ParleyJsdomEnvironment as TestEnvironment };
