import { type Document, type IndexLanguage, Retriever } from '@parley/reference-server';
import { afterEach, describe, expect, test, vi } from 'vitest';

const docs = (entries: Record<string, string>): Document[] =>
  Object.entries(entries).map(([id, text]) => ({ id, text, tags: {} }));

function indexOf(language: IndexLanguage | undefined, entries: Record<string, string>): Retriever {
  const documents = docs(entries);
  return new Retriever({ x: language === undefined ? documents : { documents, language } });
}

async function ids(retriever: Retriever, query: string): Promise<string[]> {
  return (await retriever.search(query, { maxResults: 50 })).map((hit) => hit.id).sort();
}

describe('German', () => {
  const german = indexOf('german', {
    erstattung: 'Die Rückerstattung erfolgt innerhalb von 14 Tagen auf das Konto des Kunden.',
    ruecksendung: 'Rücksendungen sind für Kunden kostenlos.',
    versand: 'Der Versand dauert zwei Werktage.',
    haus: 'Das Haus hat drei Etagen.',
  });

  test('a German query matches only documents containing its word', async () => {
    expect(await ids(german, 'Rückerstattung')).toEqual(['erstattung']);
    expect(await ids(german, 'Rücksendungen')).toEqual(['ruecksendung']);
  });

  test("stop words of the index's language do not match", async () => {
    expect(await ids(german, 'für')).toEqual([]);
    expect(await ids(german, 'für den Versand')).toEqual(['versand']);
  });

  test('an inflected form finds the word through the German stemmer (Häuser finds Haus)', async () => {
    expect(await ids(german, 'Häuser')).toEqual(['haus']);
  });

  test('case and umlauts are optional in the query', async () => {
    expect(await ids(german, 'RUCKERSTATTUNG')).toEqual(['erstattung']);
  });
});

describe('French', () => {
  const french = indexOf('french', {
    remboursement: 'Le remboursement de l’hôtel est effectué sous 14 jours.',
    livraison: 'La livraison prend trois jours ouvrés.',
    annulation: "L'annulation d'une réservation est gratuite.",
  });

  test('a French query matches only documents containing its word, plural or singular', async () => {
    expect(await ids(french, 'remboursements')).toEqual(['remboursement']);
    expect(await ids(french, 'livraisons')).toEqual(['livraison']);
  });

  test('elided articles are split off: "hôtel" finds "l’hôtel", "annulation" finds "L\'annulation"', async () => {
    expect(await ids(french, 'hôtel')).toEqual(['remboursement']);
    expect(await ids(french, 'annulation')).toEqual(['annulation']);
  });

  test('accents are optional in the query', async () => {
    expect(await ids(french, 'hotel')).toEqual(['remboursement']);
    expect(await ids(french, 'reservation')).toEqual(['annulation']);
  });

  test("stop words of the index's language do not match", async () => {
    expect(await ids(french, 'le la de d une')).toEqual([]);
  });
});

describe('Japanese (no spaces between words)', () => {
  const entries = {
    refund: '返金は配達から30日以内に請求できます。',
    hours: 'サポートの営業時間は平日の9時から18時です。',
    password: 'パスワードの再設定はサインイン画面から行います。',
  };
  const japanese = indexOf('japanese', entries);

  test('text is split into words by dictionary: a word inside a sentence matches', async () => {
    expect(await ids(japanese, '返金')).toEqual(['refund']);
    expect(await ids(japanese, '営業時間')).toEqual(['hours']);
    expect(await ids(japanese, 'パスワード')).toEqual(['password']);
  });

  test('a query matches words, not every document sharing one of its characters', async () => {
    // 金 occurs inside 返金 (refund), but 金額 (amount) is another word.
    expect(await ids(japanese, '金額')).toEqual([]);
  });

  test("stop words of the index's language do not match", async () => {
    // Every document contains から and の.
    expect(await ids(japanese, 'から')).toEqual([]);
    expect(await ids(japanese, 'の')).toEqual([]);
  });

  describe('without Intl.Segmenter', () => {
    afterEach(() => {
      vi.unstubAllGlobals();
    });

    test('each character of a script without spaces is a word of its own', async () => {
      vi.stubGlobal('Intl', Object.create(Intl, { Segmenter: { value: undefined } }));
      const characters = indexOf('japanese', entries);
      expect(await ids(characters, '金額')).toEqual(['refund']);
      expect(await ids(characters, '返金')).toEqual(['refund']);
    });
  });
});

describe('Mandarin', () => {
  const mandarin = indexOf('mandarin', {
    refund: '顾客可以在交货后三十天内申请退款。',
    shipping: '订单在下午两点前发货。',
  });

  test('a word inside a sentence matches; stop words do not', async () => {
    expect(await ids(mandarin, '退款')).toEqual(['refund']);
    expect(await ids(mandarin, '发货')).toEqual(['shipping']);
    expect(await ids(mandarin, '在')).toEqual([]);
  });
});

describe('English, the default language', () => {
  const english = indexOf(undefined, {
    refunded: 'It was refunded yesterday.',
    policy: 'The policies of the shop.',
  });

  test('an inflected form finds the word through the English stemmer', async () => {
    expect(await ids(english, 'refunds')).toEqual(['refunded']);
    expect(await ids(english, 'policy')).toEqual(['policy']);
  });

  test('English stop words do not match', async () => {
    expect(await ids(english, 'it was the')).toEqual([]);
    expect(await ids(english, 'a')).toEqual([]);
  });
});

describe('index language', () => {
  test('is english unless given', () => {
    const retriever = new Retriever({ a: [], b: { documents: [], language: 'german' } });
    expect(retriever.get('a')?.language).toBe('english');
    expect(retriever.get('b')?.language).toBe('german');
  });

  test('an unknown language throws, naming the supported languages', () => {
    expect(() => new Retriever({ kb: { documents: [], language: 'klingon' as IndexLanguage } })).toThrow(
      /Index "kb": unknown language "klingon" \(supported: arabic, .*french, german, .*japanese, .*mandarin, /,
    );
  });

  test('ready() resolves once the index is built', async () => {
    const retriever = indexOf('german', { a: 'Haus' });
    await expect(retriever.ready()).resolves.toBeUndefined();
  });
});
