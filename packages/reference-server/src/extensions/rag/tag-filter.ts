import type { RagConfig } from '@parley/protocol';

/** `rag.tagFilter`: include and exclude maps from tag name to values. */
export type TagFilter = NonNullable<RagConfig['tagFilter']>;

/**
 * The reference semantics of a tag filter, as a predicate over one document's tags:
 *
 * - `include`: for **every** named tag, the document must carry **at least one** of the accepted
 *   values. An empty accepted list accepts nothing, so it matches no document. A tag the document
 *   does not carry (an unknown tag included) fails. An empty `include` map constrains nothing.
 * - `exclude`: a document carrying **any** listed value of **any** named tag is dropped. An empty
 *   list, or a tag the document does not carry, drops nothing.
 * - Both: a document must pass `include` and must not be hit by `exclude` (exclude wins).
 *
 * Values compare exactly (case-sensitive). The search itself runs the same rules as an Orama
 * `where` clause (`tagFilterWhere`); this predicate documents and tests them.
 */
export function matchesTagFilter(
  tags: Readonly<Record<string, readonly string[]>>,
  filter: TagFilter,
): boolean {
  for (const [name, accepted] of Object.entries(filter.include ?? {})) {
    const values = tags[name] ?? [];
    if (!accepted.some((value) => values.includes(value))) return false;
  }
  for (const [name, rejected] of Object.entries(filter.exclude ?? {})) {
    const values = tags[name] ?? [];
    if (rejected.some((value) => values.includes(value))) return false;
  }
  return true;
}

/** Encodes one tag as a single enum value of the index's `tagPairs` field: unambiguous for any name or value. */
export function tagPair(name: string, value: string): string {
  return JSON.stringify([name, value]);
}

export function tagPairs(tags: Readonly<Record<string, readonly string[]>>): string[] {
  return Object.entries(tags).flatMap(([name, values]) => values.map((value) => tagPair(name, value)));
}

type PairCondition = { tagPairs: { containsAny: string[] } };
/** An Orama where clause over the `tagPairs` field. */
export type TagWhere = PairCondition | { not: PairCondition } | { and: TagWhere[] };

/**
 * The Orama `where` clause for a filter: `undefined` when nothing is filtered, `'nothing'` when no
 * document can match (an included tag with an empty accepted list).
 */
export function tagFilterWhere(filter: TagFilter | undefined): TagWhere | undefined | 'nothing' {
  if (filter === undefined) return undefined;
  const conditions: TagWhere[] = [];
  for (const [name, accepted] of Object.entries(filter.include ?? {})) {
    if (accepted.length === 0) return 'nothing';
    conditions.push({ tagPairs: { containsAny: accepted.map((value) => tagPair(name, value)) } });
  }
  const rejected = Object.entries(filter.exclude ?? {}).flatMap(([name, values]) =>
    values.map((value) => tagPair(name, value)),
  );
  if (rejected.length > 0) conditions.push({ not: { tagPairs: { containsAny: rejected } } });
  if (conditions.length === 0) return undefined;
  if (conditions.length === 1) return conditions[0];
  return { and: conditions };
}
