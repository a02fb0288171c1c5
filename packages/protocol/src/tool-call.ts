import * as z from 'zod';
import { JsonObjectSchema } from './content.js';
import { ToolCallStateSchema } from './send-message.js';

const HEARTBEAT_TIMESTAMP_RULE = "must be a non-negative integer: the caller's Unix time in milliseconds";

/** A heartbeat's timestamp: Unix time in whole milliseconds (`Date.now()`), never negative. */
export const HeartbeatTimestampSchema = z
  .number({ error: HEARTBEAT_TIMESTAMP_RULE })
  .int({ error: HEARTBEAT_TIMESTAMP_RULE })
  .nonnegative({ error: HEARTBEAT_TIMESTAMP_RULE });

/** `POST /v1/tools/request/:sessionId/:requestId/heartbeat` body: a liveness beat or a failure report. */
export const HeartbeatRequestSchema = z.discriminatedUnion('state', [
  z.strictObject({
    state: z.literal('PROCESSING'),
    /** The caller's timestamp (Unix ms). The server records its own receive time for staleness. */
    heartbeat: HeartbeatTimestampSchema,
  }),
  z.strictObject({
    state: z.literal('ERROR'),
    /** Human-readable; the model sees it and may adjust. */
    error: z.string().min(1),
    heartbeat: HeartbeatTimestampSchema.optional(),
  }),
]);
export type HeartbeatRequest = z.infer<typeof HeartbeatRequestSchema>;

/** `POST /v1/tools/response/:sessionId/:requestId` body. Fields besides `state` reach the model unchanged. */
export const ToolResponseRequestSchema = z.strictObject({
  response: z.looseObject({ state: z.literal('COMPLETE') }),
});
export type ToolResponseRequest = { response: { state: 'COMPLETE'; [field: string]: unknown } };

/** `GET /v1/tools/request/:sessionId/:requestId` → 200: one tool call as the server sees it now. */
export const ToolCallSchema = z.looseObject({
  sessionId: z.string(),
  requestId: z.string(),
  name: z.string(),
  input: JsonObjectSchema,
  state: ToolCallStateSchema,
  createdAt: z.number(),
  deadlineAt: z.number(),
  /**
   * Server receive time of the last PROCESSING heartbeat (lease extension: a call a leasing send
   * picked up starts with its creation time).
   */
  lastHeartbeatAt: z.number().nullable(),
  /** When the call reached a terminal state. */
  settledAt: z.number().nullable(),
  /** The error text for ERROR and ABANDONED calls. */
  error: z.string().optional(),
  /** Lease extension: how many times the call was leased to a worker (0 before the first). */
  attempt: z.number().int().nonnegative().optional(),
  /** Lease extension: when the current lease ends (server clock, ms), `null` when none is held. */
  leaseExpiresAt: z.number().nullable().optional(),
});
export type ToolCall = z.infer<typeof ToolCallSchema>;

/**
 * Lease extension: the header that carries a worker's lease token on a send (the calls its reply
 * creates are leased to it), a heartbeat and a report. A server without the extension ignores it.
 */
export const LEASE_TOKEN_HEADER = 'parley-lease';

/** Lease extension: a lease token is 16 to 128 characters of `A-Z a-z 0-9 _ -`. */
export const LeaseTokenSchema = z
  .string()
  .regex(/^[A-Za-z0-9_-]{16,128}$/, { error: 'must be 16 to 128 characters of A-Z, a-z, 0-9, _ and -' });

/**
 * Lease extension: the lease a `PROCESSING` heartbeat with a lease token is answered with, parsed
 * from its `parley-lease-state` header (`attempt=2, leaseExpiresAt=..., ...`; the token is the
 * request's). A server without the extension sends no such header.
 */
export const HeartbeatLeaseSchema = z.strictObject({
  /** The token the lease is held by (the one the beat sent). */
  leaseToken: z.string(),
  /** How many times the call was leased; 1 for the first worker, more after a takeover. */
  attempt: z.number().int().positive(),
  /** When this lease ends unless renewed (server clock, ms). */
  leaseExpiresAt: z.number(),
  /** The server's heartbeat timeout: the length of a lease, in ms. */
  heartbeatTimeoutMs: z.number().positive(),
  /** When the call is abandoned if not settled (server clock, ms). */
  deadlineAt: z.number(),
  /** The server's clock when it answered (ms): the call's times minus it are the time left. */
  now: z.number(),
});
export type HeartbeatLease = z.infer<typeof HeartbeatLeaseSchema>;
