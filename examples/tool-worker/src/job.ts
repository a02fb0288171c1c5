import type { ToolCallLostReason } from '@parley/sdk';
import { z } from 'zod';

/** Header the worker sends with every request, so the app side can tell its requests apart. */
export const CLIENT_HEADER = 'x-parley-client';

/**
 * One tool call to fulfil: what the app side puts on the queue for each entry of
 * `reply.pendingTools`. One JSON object per line on the worker's stdin.
 */
export const JobSchema = z.object({
  sessionId: z.string().min(1),
  requestId: z.string().min(1),
  name: z.string().min(1),
  input: z.record(z.string(), z.unknown()),
  /** `reply.heartbeatTimeoutMs`: sets the heartbeat interval. */
  heartbeatTimeoutMs: z.number().positive().optional(),
  /** `pendingTools[i].deadlineAt` (server clock, ms): after it the call is abandoned anyway. */
  deadlineAt: z.number().optional(),
});
export type Job = z.infer<typeof JobSchema>;

/**
 * How a job ended:
 * - `COMPLETE` / `ERROR`: this worker's report of the output / failure is on the server;
 * - `ALREADY_SETTLED`: someone else settled the call first (409, or `tools.get` found it settled);
 *   nothing was reported;
 * - `LOST`: the call was abandoned or deleted while running (409/404 on a heartbeat); nothing reported;
 * - `DUPLICATE`: the job was delivered again after this worker had settled it; nothing was run or sent;
 * - `FAILED`: the report could not be delivered before the call's deadline (or no result was kept).
 */
export type JobStatus = 'COMPLETE' | 'ERROR' | 'ALREADY_SETTLED' | 'LOST' | 'DUPLICATE' | 'FAILED';

/** One JSON line on the worker's stdout per job delivered. */
export interface JobOutcome {
  type: 'outcome';
  sessionId: string;
  requestId: string;
  name: string;
  status: JobStatus;
  /** The output that was reported (`COMPLETE`). */
  output?: Record<string, unknown>;
  /** Why the job ended without this worker's result on the server, or the reported failure. */
  detail?: string;
  /** `LOST` from a heartbeat: `ABANDONED` (409), `NOT_FOUND` (404) or `TIMED_OUT` (no beat got through). */
  lostReason?: ToolCallLostReason;
  /**
   * 1 when this worker's terminal report is on the server (`COMPLETE`, `ERROR`), else 0. An identical
   * repeat (a retry after a lost answer) changes nothing on the server and is not counted twice.
   */
  reportsAccepted: number;
}

/** Parses one line of the job stream; throws with a readable message. */
export function parseJob(line: string): Job {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    throw new Error('not JSON');
  }
  const parsed = JobSchema.safeParse(value);
  if (!parsed.success) throw new Error(z.prettifyError(parsed.error).replaceAll('\n', ' '));
  return parsed.data;
}
