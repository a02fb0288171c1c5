import * as z from 'zod';
import { findLostProtoKey, PROTO_KEY } from '../../utils/lost-proto-key.js';
import { formatIssues } from '../format-issues.js';

/** A document of a retrieval index. */
export interface Document {
  /** Unique within its index. */
  id: string;
  text: string;
  title?: string;
  /** Tag name -> values, e.g. `{ lang: ['en'], team: ['sales', 'support'] }`. */
  tags: Record<string, string[]>;
}

/** A document as written in options or files: `tags` values may be a single string, `tags` may be omitted. */
export const DocumentInputSchema = z.strictObject({
  id: z.string().min(1),
  text: z.string().min(1),
  title: z.string().min(1).optional(),
  tags: z
    .record(
      z.string().min(1),
      // A single string is a one-value list; preprocessing keeps errors precise (`tags.lang.0: ...`).
      z.preprocess((value) => (typeof value === 'string' ? [value] : value), z.array(z.string())),
    )
    .optional(),
});
export interface DocumentInput {
  id: string;
  text: string;
  title?: string;
  tags?: Record<string, string | string[]>;
}

/** A problem found while reading documents; `line` is 1-based for JSONL, the array position + 1 for JSON. */
export interface DocumentProblem {
  line: number;
  message: string;
}

/** Documents that could not be read; `problems` names every bad line, not only the first. */
export class DocumentLoadError extends Error {
  override name = 'DocumentLoadError' as const;
  readonly source: string;
  readonly problems: DocumentProblem[];
  constructor(source: string, problems: DocumentProblem[], options?: { cause?: unknown }) {
    const listed = problems
      .slice(0, 10)
      .map((p) => `line ${p.line}: ${p.message}`)
      .join('\n  ');
    const more = problems.length > 10 ? `\n  ... and ${problems.length - 10} more` : '';
    super(`Cannot load documents from ${source}:\n  ${listed}${more}`, options);
    this.source = source;
    this.problems = problems;
  }
}

export function isDocumentLoadError(error: unknown): error is DocumentLoadError {
  return error instanceof Error && error.name === 'DocumentLoadError';
}

/**
 * Validates and normalises one document (single-string tag values become one-element lists). Throws
 * zod's error for a document that does not match, and a TypeError for a `__proto__` tag name.
 */
export function toDocument(input: unknown): Document {
  const parsed = DocumentInputSchema.parse(input);
  const lost = lostProtoKeyMessage(input, parsed);
  if (lost !== undefined) throw new TypeError(`Document ${parsed.id}: ${lost}`);
  return normalise(parsed);
}

/** Why a document parsed from JSON lost a `__proto__` key (a tag of that name), if it did. */
function lostProtoKeyMessage(input: unknown, parsed: unknown): string | undefined {
  const lost = findLostProtoKey(input, parsed);
  return lost === undefined
    ? undefined
    : `${lost.join('.')}: a key named "${PROTO_KEY}" is not accepted here (it could not be kept)`;
}

function normalise(parsed: z.output<typeof DocumentInputSchema>): Document {
  const tags: Record<string, string[]> = {};
  for (const [name, value] of Object.entries(parsed.tags ?? {})) {
    tags[name] = [...new Set(value)];
  }
  return {
    id: parsed.id,
    text: parsed.text,
    ...(parsed.title === undefined ? {} : { title: parsed.title }),
    tags,
  };
}

/**
 * Reads documents from JSON or JSONL text. JSON is an array of documents or `{ "documents": [...] }`;
 * anything else is read as JSONL (one document per line, blank lines and lines starting with `//`
 * ignored). Every bad line and every duplicate id is reported in one {@link DocumentLoadError}.
 */
export function parseDocuments(text: string, source = 'documents'): Document[] {
  const whole = tryParse(text);
  if (Array.isArray(whole)) return validateAll(whole, source);
  if (isObject(whole) && Array.isArray(whole.documents)) return validateAll(whole.documents, source);

  const problems: DocumentProblem[] = [];
  const documents: Document[] = [];
  const seen = new Set<string>();
  text.split(/\r?\n/).forEach((raw, i) => {
    const line = raw.trim();
    if (line === '' || line.startsWith('//')) return;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch (error) {
      problems.push({ line: i + 1, message: `not JSON (${(error as Error).message})` });
      return;
    }
    collect(value, i + 1, documents, problems, seen);
  });
  if (problems.length > 0) throw new DocumentLoadError(source, problems);
  return documents;
}

function validateAll(values: unknown[], source: string): Document[] {
  const problems: DocumentProblem[] = [];
  const documents: Document[] = [];
  const seen = new Set<string>();
  values.forEach((value, i) => {
    collect(value, i + 1, documents, problems, seen);
  });
  if (problems.length > 0) throw new DocumentLoadError(source, problems);
  return documents;
}

function collect(
  value: unknown,
  line: number,
  documents: Document[],
  problems: DocumentProblem[],
  seen: Set<string>,
): void {
  const parsed = DocumentInputSchema.safeParse(value);
  if (!parsed.success) {
    problems.push({ line, message: formatIssues(parsed.error) });
    return;
  }
  const lost = lostProtoKeyMessage(value, parsed.data);
  if (lost !== undefined) {
    problems.push({ line, message: lost });
    return;
  }
  if (seen.has(parsed.data.id)) {
    problems.push({ line, message: `duplicate id "${parsed.data.id}"` });
    return;
  }
  seen.add(parsed.data.id);
  documents.push(normalise(parsed.data));
}

function tryParse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
