import { mapConcurrent } from '../../internal/map-concurrent.js';

/**
 * Maps a step's calls as `mapConcurrent` does, except that the items `exclusive` picks run after
 * all the others have settled, one at a time: a tool defined with `exclusive: true` never runs
 * beside another call. Results keep the order of `items`.
 */
export async function mapInTurns<T, R>(
  items: readonly T[],
  concurrency: number,
  exclusive: (item: T) => boolean,
  fn: (item: T) => Promise<R>,
  onFirstError: (error: unknown) => void,
): Promise<R[]> {
  if (!items.some(exclusive)) return mapConcurrent(items, concurrency, fn, onFirstError);
  const indexed = items.map((item, index) => ({ item, index }));
  const together = indexed.filter(({ item }) => !exclusive(item));
  const alone = indexed.filter(({ item }) => exclusive(item));
  const results: R[] = [];
  const run = ({ item, index }: { item: T; index: number }) =>
    fn(item).then((result) => {
      results[index] = result;
    });
  await mapConcurrent(together, concurrency, run, onFirstError);
  await mapConcurrent(alone, 1, run, onFirstError);
  return results;
}
