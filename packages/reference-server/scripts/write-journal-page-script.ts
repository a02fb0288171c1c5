// Writes src/testing/journal-page-script.ts from the page's script source. Run `pnpm journal-page`
// after changing src/testing/journal-page-client.ts or journal-page-text.ts, and after `pnpm format`:
// esbuild keeps some of the source's line breaks, so the output follows its formatting.
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { JOURNAL_PAGE_SCRIPT_MODULE, renderJournalPageScriptModule } from './journal-page-script.js';

writeFileSync(JOURNAL_PAGE_SCRIPT_MODULE, await renderJournalPageScriptModule());
console.log(`wrote ${fileURLToPath(JOURNAL_PAGE_SCRIPT_MODULE)}`);
