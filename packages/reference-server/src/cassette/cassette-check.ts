import { isKnownStreamEventKind, STREAM_EVENT_SCHEMAS } from '@parley/protocol';
import type { z } from 'zod';

/** Issues an invalid cassette's error lists; the rest are counted in one more line. */
export const MAX_LISTED_CASSETTE_ISSUES = 20;
/** Characters of one listed issue (a value or key a hostile file holds is never echoed whole). */
const MAX_ISSUE_CHARS = 200;
/** Characters of a bad `version` shown. */
const MAX_SHOWN_VERSION_CHARS = 40;

/** What the check reads of a cassette that has the format's shape: each turn's recorded events. */
interface RecordedTurns {
  readonly sessions: ReadonlyArray<{
    readonly turns: ReadonlyArray<{
      readonly events?: ReadonlyArray<{ readonly event: Record<string, unknown> }> | undefined;
    }>;
  }>;
}

/**
 * Where a cassette's recorded stream events break the protocol (a replay would send them on as
 * they are): each event is an object with one key, its kind; an event of a known kind has the
 * payload the protocol gives it, and a `start` or `delta` naming a known branch (`toolUse`,
 * `toolResult`, `text`) has that branch's shape. Unknown kinds are allowed (consumers pass them
 * through; a replay leaves them out). Each issue names the field: `sessions.0.turns.1.events.2...`.
 */
export function cassetteProtocolIssues(cassette: RecordedTurns): string[] {
  const issues: string[] = [];
  cassette.sessions.forEach((session, s) => {
    session.turns.forEach((turn, t) => {
      turn.events?.forEach(({ event }, e) => {
        const at = `sessions.${s}.turns.${t}.events.${e}.event`;
        const kinds = Object.keys(event);
        const kind = kinds[0];
        if (kind === undefined || kinds.length !== 1) {
          issues.push(`${at}: an event is an object with one key, its kind (it has ${kinds.length})`);
          return;
        }
        if (!isKnownStreamEventKind(kind)) return;
        const payload = event[kind];
        const schema: z.ZodType = STREAM_EVENT_SCHEMAS[kind];
        const own = zodIssues(schema, payload, `${at}.${kind}`);
        issues.push(...own);
        if (own.length > 0 || typeof payload !== 'object' || payload === null) return;
        if (kind === 'contentBlockStart' || kind === 'contentBlockDelta') {
          const [field, union] =
            kind === 'contentBlockStart'
              ? (['start', STREAM_EVENT_SCHEMAS.contentBlockStart.shape.start] as const)
              : (['delta', STREAM_EVENT_SCHEMAS.contentBlockDelta.shape.delta] as const);
          const value = (payload as Record<string, unknown>)[field];
          issues.push(...branchIssues(union.options, value, `${at}.${kind}.${field}`));
        }
      });
    });
  });
  return issues;
}

/**
 * A union that ends with an open branch (`{}`, for kinds to come) accepts any value; a value that
 * names a known branch by its key must have that branch's shape.
 */
function branchIssues(options: readonly z.ZodType[], value: unknown, at: string): string[] {
  if (typeof value !== 'object' || value === null) return [];
  for (const option of options) {
    const shape: unknown = 'shape' in option ? option.shape : undefined;
    if (typeof shape !== 'object' || shape === null) continue;
    const keys = Object.keys(shape);
    if (keys.length === 1 && Object.hasOwn(value, keys[0] as string)) return zodIssues(option, value, at);
  }
  return [];
}

function zodIssues(schema: z.ZodType, value: unknown, at: string): string[] {
  const result = schema.safeParse(value);
  if (result.success) return [];
  return result.error.issues.map((issue) => `${[at, ...issue.path.map(String)].join('.')}: ${issue.message}`);
}

/** The issues an error lists: at most {@link MAX_LISTED_CASSETTE_ISSUES}, each cut to a readable length. */
export function listedIssues(issues: readonly string[]): string[] {
  const shown = issues
    .slice(0, MAX_LISTED_CASSETTE_ISSUES)
    .map((issue) => (issue.length > MAX_ISSUE_CHARS ? `${issue.slice(0, MAX_ISSUE_CHARS)}...` : issue));
  const more = issues.length - shown.length;
  return more > 0 ? [...shown, `and ${more} more`] : shown;
}

/** A bad `version` as an error shows it: its JSON, cut short. */
export function describeVersion(version: unknown): string {
  const json = JSON.stringify(version) ?? String(version);
  return json.length > MAX_SHOWN_VERSION_CHARS ? `${json.slice(0, MAX_SHOWN_VERSION_CHARS)}...` : json;
}
