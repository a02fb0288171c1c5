/**
 * Edits that turn `a` into `b`: insertions, deletions, substitutions, and a swap of two neighbours
 * counted as one (the optimal string alignment distance: `rnu` is one edit from `run`).
 */
export function editDistance(a: string, b: string): number {
  let before: number[] = [];
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const substitution = (previous[j - 1] as number) + (a[i - 1] === b[j - 1] ? 0 : 1);
      let best = Math.min(substitution, (previous[j] as number) + 1, (current[j - 1] as number) + 1);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        best = Math.min(best, (before[j - 2] as number) + 1);
      current[j] = best;
    }
    before = previous;
    previous = current;
  }
  return previous[b.length] as number;
}

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
