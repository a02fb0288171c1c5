// The edit distance is the options check's (@parley/protocol/option-check, dependency-free): one
// copy for the SDK and the server.
import { editDistance } from '@parley/protocol/option-check';

export { editDistance };

/**
 * The known name nearest to `name` (case ignored), if it is close enough to be a slip: at most one
 * edit in three characters, at least one. The first of equally near names wins; `undefined` when
 * none is near or `name` is itself known.
 */
export function nearestName(name: string, known: readonly string[]): string | undefined {
  if (known.includes(name)) return undefined;
  const lower = name.toLowerCase();
  const limit = Math.max(1, Math.floor(name.length / 3));
  let best: { name: string; distance: number } | undefined;
  for (const candidate of known) {
    const distance = editDistance(lower, candidate.toLowerCase());
    if (distance <= limit && (best === undefined || distance < best.distance))
      best = { name: candidate, distance };
  }
  return best?.name;
}
