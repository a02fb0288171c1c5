// Small helpers the server bench parts share.

/** The median of `values` (NaN for none). */
export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
}

/** `x0.42` with two decimals. */
export function ratio(value: number): string {
  return `x${value.toFixed(2)}`;
}

/** A figure with a verdict against its goal, e.g. `x0.61 (goal >= 0.5: met)`. */
export function verdict(value: number, goal: string, met: boolean): string {
  return `${ratio(value)} (goal ${goal}: ${met ? 'met' : 'NOT met'})`;
}

/** Mebibytes with one decimal. */
export function mib(bytes: number): string {
  return `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
}
