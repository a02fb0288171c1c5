// Node-only: file loading for the CLI. Not imported by the rest of the extensions, so that
// `createExtensionHost` stays usable without a file system.
import { readFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import type { ExtensionHostOptions } from './create-extension-host.js';
import { ExtensionsConfigError, loadExtensionsConfig, toExtensionHostOptions } from './extensions-config.js';
import { type Document, DocumentLoadError, parseDocuments } from './rag/document.js';

/** Reads documents from a JSON or JSONL file (see `parseDocuments`); bad lines are all reported. */
export async function loadDocumentsFile(path: string): Promise<Document[]> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    throw new DocumentLoadError(path, [{ line: 0, message: (error as Error).message }], { cause: error });
  }
  return parseDocuments(text, path);
}

/**
 * Reads and validates an extensions config file (`--config FILE`) and the document files its indexes
 * name (paths relative to the config file). The result is ready for `createExtensionHost`.
 */
export async function loadExtensionsConfigFile(path: string): Promise<ExtensionHostOptions> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    throw new ExtensionsConfigError(path, [(error as Error).message], { cause: error });
  }
  const config = loadExtensionsConfig(text, path);
  const files: Record<string, Document[]> = {};
  for (const [name, source] of Object.entries(config.indexes ?? {})) {
    if ('file' in source) files[name] = await loadDocumentsFile(resolve(dirname(path), source.file));
  }
  return toExtensionHostOptions(config, files);
}
