/**
 * Maps `items` with at most `concurrency` calls of `fn` running at once; results keep the order
 * of `items`. When a call rejects no new call starts, `onFirstError` runs (to cancel the calls
 * still running), and once every started call has settled the first error is thrown.
 */
export async function mapConcurrent<T, R>(
  items: readonly T[],
  concurrency: number,
  fn: (item: T, index: number) => Promise<R>,
  onFirstError?: (error: unknown) => void,
): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  let failure: { error: unknown } | undefined;
  const worker = async (): Promise<void> => {
    while (failure === undefined && next < items.length) {
      const index = next++;
      try {
        results[index] = await fn(items[index] as T, index);
      } catch (error) {
        if (failure === undefined) {
          failure = { error };
          onFirstError?.(error);
        }
      }
    }
  };
  const workers = Math.max(1, Math.min(concurrency, items.length));
  await Promise.all(Array.from({ length: workers }, worker));
  if (failure !== undefined) throw failure.error;
  return results;
}
