import * as z from 'zod';

import { ERROR_CODES, type ErrorCode } from './error-codes.js';

export { ERROR_CODES, type ErrorCode };

export function statusOf(code: ErrorCode): number {
  return ERROR_CODES[code].status;
}

/** Every error response: `{ "error": { "code", "message", "details"? } }`. */
export const ErrorBodySchema = z.looseObject({
  error: z.looseObject({
    code: z.string(),
    message: z.string(),
    details: z.record(z.string(), z.unknown()).optional(),
  }),
});
export type ErrorBody = {
  error: { code: ErrorCode | (string & {}); message: string; details?: Record<string, unknown> };
};

/** Response header carrying the server's id for the request; quote it when reporting a problem. */
export const REQUEST_ID_HEADER = 'x-request-id';
