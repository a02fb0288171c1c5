import type { UpstreamOptions } from './upstream-options.js';

/** How long `/readyz` waits for the upstream to answer before it says it did not. */
export const PROBE_TIMEOUT_MS = 5000;

/**
 * Whether the upstream answers at all (`GET <url>/healthz`; any HTTP status counts, a real
 * deployment may have no such path): undefined once it did, else the reason it is not ready. An
 * upstream that answered once is not asked again.
 */
export function upstreamProbe(upstream: UpstreamOptions, shown: string): () => Promise<string | undefined> {
  let answered = false;
  return async () => {
    if (answered) return undefined;
    try {
      const response = await (upstream.fetch ?? fetch)(`${upstream.url.replace(/\/+$/, '')}/healthz`, {
        method: 'GET',
        signal: AbortSignal.timeout(PROBE_TIMEOUT_MS),
      });
      await response.body?.cancel();
      answered = true;
      return undefined;
    } catch (error) {
      return `the upstream ${shown} has not answered yet (${(error as Error).message})`;
    }
  };
}
