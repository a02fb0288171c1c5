import { type Document, matchesTagFilter, Retriever, type TagFilter } from '@parley/reference-server';
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';

const corpus: Document[] = [
  {
    id: 'en-sales-public',
    text: 'policy one',
    tags: { lang: ['en'], team: ['sales'], visibility: ['public'] },
  },
  { id: 'de-sales', text: 'policy two', tags: { lang: ['de'], team: ['sales'] } },
  {
    id: 'en-support-eng-internal',
    text: 'policy three',
    tags: { lang: ['en'], team: ['support', 'eng'], visibility: ['internal'] },
  },
  { id: 'untagged', text: 'policy four', tags: {} },
];
const retriever = new Retriever({ docs: corpus });

async function ids(tagFilter: TagFilter): Promise<string[]> {
  const hits = await retriever.search('policy', { tagFilter, maxResults: 50 });
  return hits.map((h) => h.id).sort();
}

describe('tagFilter.include', () => {
  test('keeps documents that carry one of the accepted values of the named tag', async () => {
    expect(await ids({ include: { lang: ['en'] } })).toEqual(['en-sales-public', 'en-support-eng-internal']);
  });

  test('accepts any of several values of one tag', async () => {
    expect(await ids({ include: { lang: ['en', 'de'] } })).toEqual([
      'de-sales',
      'en-sales-public',
      'en-support-eng-internal',
    ]);
  });

  test('requires every named tag (AND across tags)', async () => {
    expect(await ids({ include: { lang: ['en'], team: ['sales'] } })).toEqual(['en-sales-public']);
  });

  test('matches a multi-valued tag when any of its values is accepted', async () => {
    expect(await ids({ include: { team: ['eng'] } })).toEqual(['en-support-eng-internal']);
  });

  test('an empty accepted list matches no document', async () => {
    expect(await ids({ include: { lang: [] } })).toEqual([]);
    expect(await ids({ include: { lang: ['en'], team: [] } })).toEqual([]);
  });

  test('an unknown tag matches no document', async () => {
    expect(await ids({ include: { region: ['emea'] } })).toEqual([]);
  });

  test('an unknown value matches no document', async () => {
    expect(await ids({ include: { lang: ['fr'] } })).toEqual([]);
  });

  test('drops documents that do not carry the tag at all', async () => {
    expect(await ids({ include: { visibility: ['public', 'internal'] } })).toEqual([
      'en-sales-public',
      'en-support-eng-internal',
    ]);
  });

  test('an empty include map filters nothing', async () => {
    expect(await ids({ include: {} })).toHaveLength(4);
  });

  test('values compare case-sensitively', async () => {
    expect(await ids({ include: { lang: ['EN'] } })).toEqual([]);
  });
});

describe('tagFilter.exclude', () => {
  test('drops documents that carry a listed value', async () => {
    expect(await ids({ exclude: { visibility: ['internal'] } })).toEqual([
      'de-sales',
      'en-sales-public',
      'untagged',
    ]);
  });

  test('drops documents that carry any listed value of any named tag (OR)', async () => {
    expect(await ids({ exclude: { lang: ['de'], team: ['eng'] } })).toEqual(['en-sales-public', 'untagged']);
  });

  test('an empty list drops nothing', async () => {
    expect(await ids({ exclude: { lang: [] } })).toHaveLength(4);
  });

  test('an unknown tag drops nothing', async () => {
    expect(await ids({ exclude: { region: ['emea'] } })).toHaveLength(4);
  });

  test('keeps documents that do not carry the tag', async () => {
    expect(await ids({ exclude: { visibility: ['public', 'internal'] } })).toEqual(['de-sales', 'untagged']);
  });
});

describe('tagFilter include and exclude together', () => {
  test('a document must pass include and not be hit by exclude', async () => {
    expect(await ids({ include: { lang: ['en'] }, exclude: { visibility: ['internal'] } })).toEqual([
      'en-sales-public',
    ]);
  });

  test('exclude wins over include for the same tag and value', async () => {
    expect(await ids({ include: { team: ['sales'] }, exclude: { team: ['sales'] } })).toEqual([]);
  });

  test('an empty include list matches nothing whatever exclude says', async () => {
    expect(await ids({ include: { lang: [] }, exclude: { lang: [] } })).toEqual([]);
  });

  test('no filter keeps every matching document', async () => {
    expect(await ids({})).toHaveLength(4);
  });
});

describe('the index applies exactly the documented predicate', () => {
  const names = ['lang', 'team', 'region'];
  const values = ['en', 'de', 'x'];
  const tagMap = fc.dictionary(
    fc.constantFrom(...names),
    fc.uniqueArray(fc.constantFrom(...values), { maxLength: 3 }),
  );

  test('for random documents and filters, search results equal matchesTagFilter', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(tagMap, { minLength: 1, maxLength: 8 }),
        fc.record({
          include: fc.option(tagMap, { nil: undefined }),
          exclude: fc.option(tagMap, { nil: undefined }),
        }),
        async (tagSets, rawFilter) => {
          const documents = tagSets.map((tags, i) => ({ id: `d${i}`, text: 'common word', tags }));
          const filter: TagFilter = {
            ...(rawFilter.include === undefined ? {} : { include: rawFilter.include }),
            ...(rawFilter.exclude === undefined ? {} : { exclude: rawFilter.exclude }),
          };
          const hits = await new Retriever({ x: documents }).search('common', {
            tagFilter: filter,
            maxResults: 50,
          });
          const expected = documents.filter((d) => matchesTagFilter(d.tags, filter)).map((d) => d.id);
          expect(hits.map((h) => h.id).sort()).toEqual(expected.sort());
        },
      ),
      { numRuns: 150 },
    );
  });
});
