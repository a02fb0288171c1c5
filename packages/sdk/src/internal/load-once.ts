/**
 * Wraps a dynamic `import()` of a feature's module (the recovery, the tool loop's body, the spans): the first
 * call loads it, later calls return the same promise. The module loader would give the same module
 * again, but its resolve hooks run on every `import()` (about 0.2 ms each under tsx, bench/tool-loop.ts),
 * which a tool loop would pay on every run. A load that fails is not kept: the next call loads again.
 *
 * @example
 * const loadRecoveringSend = loadOnce(() => import('../recovery/recovering-send.js'));
 */
export function loadOnce<T>(load: () => Promise<T>): () => Promise<T> {
  let loading: Promise<T> | undefined;
  return () => {
    loading ??= load().catch((error: unknown) => {
      // A load that failed (a chunk the network did not deliver) is tried again by the next call.
      loading = undefined;
      throw error;
    });
    return loading;
  };
}
