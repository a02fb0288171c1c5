import {
  ResponseContentBlockSchema,
  StopReasonSchema,
  ToolResultBlockSchema,
  UsageSchema,
} from '@parley/protocol';
import * as z from 'zod';
import { restoreLostProtoKeys } from '../utils/lost-proto-key.js';
import { cassetteProtocolIssues, describeVersion, listedIssues } from './cassette-check.js';

/** The cassette format this server writes and reads. */
export const CASSETTE_VERSION = 2;
/** The versions this server reads: 1 (before the provenance and test fields) and 2. */
export const CASSETTE_VERSIONS_READ: readonly number[] = [1, 2];
/** What a cassette's `format` field says, so a stray JSON file is told apart from a cassette. */
export const CASSETTE_FORMAT = 'parley-cassette';

/** A user message's text blocks, as the client sent them (a string content becomes one block). */
const UserTextSchema = z.array(z.strictObject({ type: z.literal('text'), text: z.string() }));

/**
 * What the model answered in a turn: either the user's text, or the tool results the server put in
 * the conversation (client tool responses and errors, server tools, abandoned calls).
 */
export const TurnInputSchema = z.union([
  z.strictObject({ user: UserTextSchema }),
  z.strictObject({ toolResults: z.array(ToolResultBlockSchema) }),
]);
export type TurnInput = z.infer<typeof TurnInputSchema>;

/** A tool call settled by the client before the turn: its result or its reported failure. */
export const ToolResponseSchema = z.union([
  z.strictObject({
    requestId: z.string(),
    state: z.literal('COMPLETE'),
    /** The `response` object of `POST /v1/tools/response/...`, `state` included. */
    response: z.record(z.string(), z.unknown()),
  }),
  z.strictObject({
    requestId: z.string(),
    state: z.literal('ERROR'),
    /** The `error` of the ERROR heartbeat. */
    error: z.string(),
  }),
]);
export type ToolResponse = z.infer<typeof ToolResponseSchema>;

/** One event of a streamed reply and when it arrived, in milliseconds since the request was sent. */
export const RecordedEventSchema = z.strictObject({
  atMs: z.number().nonnegative(),
  event: z.record(z.string(), z.unknown()),
});
export type RecordedEvent = z.infer<typeof RecordedEventSchema>;

/** One model call: the input it answered and the assistant message it produced (or its failure). */
export const CassetteTurnSchema = z.strictObject({
  /** What the model saw last: the user's text or the tool results. */
  input: TurnInputSchema,
  /** Tool calls the client settled since the previous turn, in order (for review; matching uses `input`). */
  toolResponses: z.array(ToolResponseSchema).optional(),
  /** The assistant message's blocks: text, and tool_use with its id, name and input. */
  content: z.array(ResponseContentBlockSchema),
  /** Absent on a failed turn. */
  stopReason: StopReasonSchema.optional(),
  /** Tokens of this model call, when known (a buffered reply with several calls: on its last turn). */
  usage: UsageSchema.optional(),
  /** A streamed turn: its events (messageStart of the assistant message to its metadata) and times. */
  events: z.array(RecordedEventSchema).optional(),
  /** The model failed: the error code and message the server answered with. */
  error: z.strictObject({ code: z.string(), message: z.string() }).optional(),
});
export type CassetteTurn = z.infer<typeof CassetteTurnSchema>;

/** An ISO 8601 UTC time, e.g. `2025-06-01T09:30:00.000Z`. */
const TimestampSchema = z.iso.datetime({
  error: 'must be an ISO 8601 UTC time, e.g. 2025-06-01T09:30:00.000Z',
});

/** One session, in order of creation: its customizations as sent and its model calls in order. */
export const CassetteSessionSchema = z.strictObject({
  /** The vitest test that created it (its full name), when recorded with `per: 'test'`. */
  test: z.string().optional(),
  /** When it was added to a cassette recorded earlier (`record-missing`). */
  recordedAt: TimestampSchema.optional(),
  /** The `customizations` of `POST /v1/sessions`; null for a session created without them. */
  customizations: z.record(z.string(), z.unknown()).nullable(),
  turns: z.array(CassetteTurnSchema),
});
export type CassetteSession = z.infer<typeof CassetteSessionSchema>;

/**
 * A recorded conversation, version 2 (version 1 lacks the provenance and test fields; see docs/testing.md, "Record and replay"). It holds no HTTP
 * header, so never an `Authorization` token.
 */
export const CassetteSchema = z.strictObject({
  format: z.literal(CASSETTE_FORMAT),
  version: z.union([z.literal(1), z.literal(CASSETTE_VERSION)]),
  /** When it was recorded (the server's clock). Absent in cassettes recorded before Parley 0.1.0. */
  recordedAt: TimestampSchema.optional(),
  /** The origin of the deployment it was recorded from (scheme, host and port: never credentials). */
  upstream: z.string().optional(),
  /** The version of `@parley/reference-server` that recorded it. */
  parleyVersion: z.string().optional(),
  sessions: z.array(CassetteSessionSchema),
});
export type Cassette = z.infer<typeof CassetteSchema>;

/** A cassette file that is not valid JSON or breaks the format; the message names the file and the paths. */
export class InvalidCassetteError extends Error {
  override name = 'InvalidCassetteError' as const;
  constructor(
    readonly source: string,
    readonly issues: readonly string[],
    options?: { cause?: unknown },
  ) {
    super(`Invalid cassette ${source}: ${issues.join('; ')}`, options);
  }
}

/**
 * Validates a parsed cassette against the format and the protocol (its recorded events);
 * `source` names it in the error (a file path or `the cassette`), which lists the fields that
 * break them.
 */
export function parseCassette(value: unknown, source = 'the cassette'): Cassette {
  if (
    typeof value === 'object' &&
    value !== null &&
    'version' in value &&
    !CASSETTE_VERSIONS_READ.includes(value.version as number)
  ) {
    throw new InvalidCassetteError(source, [
      `version ${describeVersion(value.version)} is not supported; this server reads versions ${CASSETTE_VERSIONS_READ.join(' and ')}`,
    ]);
  }
  const result = CassetteSchema.safeParse(value);
  const issues = result.success
    ? cassetteProtocolIssues(result.data)
    : result.error.issues.map(
        (issue) => `${issue.path.length > 0 ? issue.path.join('.') : '(root)'}: ${issue.message}`,
      );
  if (issues.length > 0) throw new InvalidCassetteError(source, listedIssues(issues));
  const cassette = result.data as Cassette;
  // Recorded JSON (customizations, tool inputs, events) keeps a key named __proto__ as data.
  restoreLostProtoKeys(value, cassette);
  return cassette;
}

/** Parses a cassette's JSON text. */
export function parseCassetteText(text: string, source = 'the cassette'): Cassette {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new InvalidCassetteError(source, [`not valid JSON: ${(error as Error).message}`], { cause: error });
  }
  return parseCassette(value, source);
}

/** An empty cassette. */
export function emptyCassette(): Cassette {
  return { format: CASSETTE_FORMAT, version: CASSETTE_VERSION, sessions: [] };
}
