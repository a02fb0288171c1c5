import type * as ToolHelpers from './tool-helpers.js';

let loading: Promise<typeof ToolHelpers> | undefined;

/**
 * The tool helpers (the tool loop's body, `runTool`, heartbeats), loaded on first use: a dynamic
 * import, so an app that never runs a tool does not download them where its bundler splits code at
 * dynamic imports. The promise is kept: later calls skip the module loader (its resolve hooks run
 * on every `import()`).
 */
export function loadToolHelpers(): Promise<typeof ToolHelpers> {
  loading ??= import('./tool-helpers.js');
  return loading;
}
