import { readFileSync } from 'node:fs';
import { Script } from 'node:vm';
import { describe, expect, it } from 'vitest';
import {
  JOURNAL_PAGE_SCRIPT_MODULE,
  renderJournalPageScriptModule,
} from '../../scripts/journal-page-script.js';
import { JOURNAL_PAGE_HTML } from '../../src/testing/journal-page.js';
import { JOURNAL_PAGE_SCRIPT } from '../../src/testing/journal-page-script.js';

describe("the journal page's script", () => {
  it('is committed as built from journal-page-client.ts (run `pnpm journal-page` after changing it)', async () => {
    expect(
      readFileSync(JOURNAL_PAGE_SCRIPT_MODULE, 'utf8'),
      'src/testing/journal-page-script.ts is stale: run `pnpm --filter @parley/reference-server journal-page`',
    ).toBe(await renderJournalPageScriptModule());
  });

  it('is one classic script that imports nothing, inlined whole in the page', () => {
    expect(() => new Script(JOURNAL_PAGE_SCRIPT)).not.toThrow();
    expect(JOURNAL_PAGE_SCRIPT).not.toMatch(/^\s*(import|export)\s/m);
    expect(JOURNAL_PAGE_SCRIPT).not.toMatch(/<\/script/i);
    expect(JOURNAL_PAGE_HTML).toContain(`<script>${JOURNAL_PAGE_SCRIPT}</script>`);
  });
});
