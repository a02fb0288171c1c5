import type { OptionKeys } from '../utils/check-options.js';
import { setOwn } from '../utils/set-own.js';
import type { Cassette } from './cassette-format.js';

/** What a redacted value is replaced with; on replay it matches any value (or any text in its place). */
export const REDACTED = '[REDACTED]';

/**
 * What to keep out of a cassette besides `Authorization` (which is never written; nor is any other
 * HTTP header: a cassette holds bodies only).
 */
export interface CassetteRedaction {
  /**
   * Fields replaced by `"[REDACTED]"`, as dotted paths into each session of the cassette; `*`
   * matches any key or array index. E.g. `customizations.sessionData.apiKey`,
   * `turns.*.toolResponses.*.response.ssn`, `turns.*.input.toolResults.*.content`.
   */
  paths?: readonly string[];
  /** Strings replaced by `"[REDACTED]"` wherever they appear in a text (a secret that leaks into answers). */
  values?: readonly string[];
}

/** Every key of a {@link CassetteRedaction}: a new one is one more line here (TypeScript fails until it is). */
export const REDACTION_KEYS = {
  paths: 'array',
  values: 'array',
} as const satisfies OptionKeys<CassetteRedaction>;

/** A copy of the cassette with the redaction applied. */
export function redactCassette(cassette: Cassette, redaction: CassetteRedaction = {}): Cassette {
  const values = (redaction.values ?? []).filter((value) => value !== '');
  let sessions: unknown = cassette.sessions;
  if (values.length > 0) sessions = replaceValues(sessions, values);
  const paths = (redaction.paths ?? []).map((path) => path.split('.').filter((key) => key !== ''));
  if (paths.length > 0) {
    sessions = (sessions as unknown[]).map((session) => {
      let out = session;
      for (const path of paths) out = redactPath(out, path);
      return out;
    });
  }
  return { ...cassette, sessions: sessions as Cassette['sessions'] };
}

function redactPath(value: unknown, path: readonly string[]): unknown {
  const [key, ...rest] = path;
  if (key === undefined) return REDACTED;
  if (Array.isArray(value)) {
    return value.map((item, i) => (key === '*' || key === String(i) ? redactPath(item, rest) : item));
  }
  if (typeof value === 'object' && value !== null) {
    const out: Record<string, unknown> = {};
    for (const [k, item] of Object.entries(value)) {
      setOwn(out, k, key === '*' || key === k ? redactPath(item, rest) : item);
    }
    return out;
  }
  return value;
}

function replaceValues(value: unknown, secrets: readonly string[]): unknown {
  if (typeof value === 'string') {
    let out = value;
    for (const secret of secrets) out = out.replaceAll(secret, REDACTED);
    return out;
  }
  if (Array.isArray(value)) return value.map((item) => replaceValues(item, secrets));
  if (typeof value === 'object' && value !== null) {
    const out: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value))
      setOwn(out, replaceValues(key, secrets) as string, replaceValues(item, secrets));
    return out;
  }
  return value;
}
