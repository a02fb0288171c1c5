import { REDACTED } from './cassette-redaction.js';

/** A string in a cassette that looks like a credential, and where it is. */
export interface TokenLikeString {
  /** Dotted path into the cassette, e.g. `sessions.0.customizations.sessionData.apiKey`. */
  path: string;
  /** What it looks like, e.g. `a bearer token`, `a value under the key "apiKey"`. */
  kind: string;
  /** Its first characters and its length, never the whole value. */
  masked: string;
}

/** Shapes of well-known credentials. */
const PATTERNS: ReadonlyArray<[kind: string, pattern: RegExp]> = [
  ['a bearer token', /\bBearer\s+[A-Za-z0-9\-._~+/]{8,}=*/],
  ['an API key (sk-...)', /\bsk-[A-Za-z0-9_-]{16,}/],
  ['a GitHub token', /\bgh[pousr]_[A-Za-z0-9]{30,}/],
  ['a Slack token', /\bxox[abprs]-[A-Za-z0-9-]{10,}/],
  ['an AWS access key id', /\bAKIA[0-9A-Z]{16}\b/],
  ['a Google API key', /\bAIza[0-9A-Za-z_-]{35}/],
  ['a JSON Web Token', /\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}/],
  ['a Parley control token', /\bpct_[0-9a-f]{32}\b/],
];

/** Keys whose string values are secrets whatever they look like. */
const SECRET_KEY =
  /^(?:.*[-_]?)?(?:token|secret|password|passwd|api[-_]?key|apikey|authorization|credentials?)$/i;

/** Public by design: the reference server's demo token. */
const PUBLIC_VALUES: ReadonlySet<string> = new Set(['parley-demo-token', REDACTED]);

/** Shortest value under a secret-looking key that counts (shorter ones are names, flags, ids). */
const MIN_SECRET_VALUE_CHARS = 8;

/**
 * Every string of `value` (a parsed cassette, or any JSON) that looks like a credential: a known
 * token shape anywhere in a text, or a long value under a key such as `apiKey` or `password`.
 * A redacted value (`[REDACTED]`) and the demo token are not.
 */
export function tokenLikeStrings(value: unknown, limit = 100): TokenLikeString[] {
  const found: TokenLikeString[] = [];
  const visit = (item: unknown, path: string, key: string | undefined): void => {
    if (found.length >= limit) return;
    if (typeof item === 'string') {
      if (PUBLIC_VALUES.has(item)) return;
      for (const [kind, pattern] of PATTERNS) {
        const match = pattern.exec(item);
        if (match !== null) {
          found.push({ path, kind, masked: mask(match[0]) });
          return;
        }
      }
      if (key !== undefined && SECRET_KEY.test(key) && item.length >= MIN_SECRET_VALUE_CHARS) {
        found.push({ path, kind: `a value under the key "${key}"`, masked: mask(item) });
      }
      return;
    }
    if (Array.isArray(item)) {
      for (const [i, element] of item.entries()) visit(element, join(path, String(i)), undefined);
      return;
    }
    if (typeof item === 'object' && item !== null) {
      for (const [childKey, child] of Object.entries(item)) visit(child, join(path, childKey), childKey);
    }
  };
  visit(value, '', undefined);
  return found;
}

function join(path: string, key: string): string {
  return path === '' ? key : `${path}.${key}`;
}

/** `sk-a...` and the length: enough to find it, never the secret itself. */
function mask(text: string): string {
  return `${text.slice(0, 4)}... (${text.length} characters)`;
}
