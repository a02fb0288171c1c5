/**
 * Above this many word pairs to weigh (the words left once the common start and end are set
 * aside, one side's times the other's), similarity counts shared word pairs instead of the
 * longest common subsequence, whose table would take seconds: 10,000 by 10,000 words.
 */
export const MAX_ORDERED_CELLS = 100_000_000;

/**
 * How alike two texts are, 0 to 1: twice the words they share in order (their longest common
 * subsequence) over their words in all. Words are what whitespace separates, so texts that differ
 * only in whitespace are alike (1); any other difference makes it less than 1 (never rounded up).
 * Two empty texts are alike. On very long texts (see {@link MAX_ORDERED_CELLS}) it counts the
 * neighbouring word pairs the two share (still in order: a text reversed shares almost none).
 */
export function textSimilarity(a: string, b: string): number {
  if (a === b) return 1;
  const x = words(a);
  const y = words(b);
  const total = x.length + y.length;
  if (total === 0) return 1;
  // The common start and end are shared as they are: only the middle needs the table.
  let start = 0;
  while (start < x.length && start < y.length && x[start] === y[start]) start++;
  let end = 0;
  while (end < x.length - start && end < y.length - start && x[x.length - 1 - end] === y[y.length - 1 - end])
    end++;
  const middleX = x.slice(start, x.length - end);
  const middleY = y.slice(start, y.length - end);
  if (middleX.length * middleY.length > MAX_ORDERED_CELLS) return sharedPairs(x, y);
  return (2 * (start + end + longestCommonSubsequence(middleX, middleY))) / total;
}

function words(text: string): string[] {
  return text.split(/\s+/).filter((w) => w !== '');
}

/** The length of the longest common subsequence, one table row at a time (words as numbers). */
function longestCommonSubsequence(x: readonly string[], y: readonly string[]): number {
  const ids = new Map<string, number>();
  const id = (word: string) => {
    const known = ids.get(word);
    if (known !== undefined) return known;
    ids.set(word, ids.size);
    return ids.size - 1;
  };
  const a = Int32Array.from(x, id);
  const b = Int32Array.from(y, id);
  let previous = new Int32Array(b.length + 1);
  let row = new Int32Array(b.length + 1);
  for (const word of a) {
    for (let j = 1; j <= b.length; j++) {
      const left = row[j - 1] as number;
      const up = previous[j] as number;
      row[j] = word === b[j - 1] ? (previous[j - 1] as number) + 1 : Math.max(up, left);
    }
    [previous, row] = [row, previous];
  }
  return previous[b.length] as number;
}

/**
 * Twice the neighbouring word pairs the texts share over their pairs in all; a one-word text
 * counts its word as its pair. Only asked about texts whose words differ, so kept below 1 (a
 * rotation, `a b c a` and `b c a b`, has the same pairs).
 */
function sharedPairs(x: readonly string[], y: readonly string[]): number {
  const pairs = (list: readonly string[]) =>
    list.length < 2 ? [...list] : list.slice(1).map((word, i) => `${list[i]} ${word}`);
  const counts = new Map<string, number>();
  const px = pairs(x);
  const py = pairs(y);
  for (const pair of px) counts.set(pair, (counts.get(pair) ?? 0) + 1);
  let shared = 0;
  for (const pair of py) {
    const left = counts.get(pair) ?? 0;
    if (left > 0) {
      shared++;
      counts.set(pair, left - 1);
    }
  }
  return Math.min((2 * shared) / (px.length + py.length), 1 - Number.EPSILON);
}
