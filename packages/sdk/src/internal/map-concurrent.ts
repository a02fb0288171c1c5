import pLimit from 'p-limit';

/**
 * Maps `items` with at most `concurrency` calls of `fn` running at once (p-limit); results keep the
 * order of `items`. When a call rejects no new call starts, `onFirstError` runs (to cancel the calls
 * still running), and once every started call has settled the first error is thrown.
 */
export async function mapConcurrent<T, R>(
  items: readonly T[],
  concurrency: number,
  fn: (item: T, index: number) => Promise<R>,
  onFirstError?: (error: unknown) => void,
): Promise<R[]> {
  const limit = pLimit(Math.max(1, concurrency));
  let failure: { error: unknown } | undefined;
  const calls = items.map((item, index) =>
    limit(async () => {
      // Queued calls still start after a failure (p-limit's clearQueue would leave them pending): they skip.
      if (failure !== undefined) return undefined as R;
      try {
        return await fn(item, index);
      } catch (error) {
        if (failure === undefined) {
          failure = { error };
          onFirstError?.(error);
        }
        return undefined as R;
      }
    }),
  );
  const results = await Promise.all(calls);
  if (failure !== undefined) throw failure.error;
  return results;
}
