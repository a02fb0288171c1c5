import type * as RecoveryHelpers from './recovery-helpers.js';

let loading: Promise<typeof RecoveryHelpers> | undefined;

/**
 * The recovery of the `recover` option, loaded on first use: a dynamic import, so an app that
 * never recovers a reply does not download it where its bundler splits code at dynamic imports.
 */
export function loadRecovery(): Promise<typeof RecoveryHelpers> {
  loading ??= import('./recovery-helpers.js');
  return loading;
}
