/**
 * Wraps a dynamic `import()` of a feature's module (the recovery, the tool loop's body, the spans): the first
 * call loads it, later calls return the same promise. The module loader would give the same module
 * again, but its resolve hooks run on every `import()` (about 0.2 ms each under tsx, bench/tool-loop.ts),
 * which a tool loop would pay on every run.
 *
 * @example
 * const loadRecoveringSend = loadOnce(() => import('../recovery/recovering-send.js'));
 */
export function loadOnce<T>(load: () => Promise<T>): () => Promise<T> {
  let loading: Promise<T> | undefined;
  return () => {
    loading ??= load();
    return loading;
  };
}
