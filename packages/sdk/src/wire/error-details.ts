import type { ErrorDetailsByCode } from '@parley/protocol/wire';
import type { ErrorCode } from './error-codes.js';

type AllDetails = {
  [C in keyof ErrorDetailsByCode]: ErrorDetailsByCode[C];
}[keyof ErrorDetailsByCode];
type Merged<U> = (U extends unknown ? (u: U) => void : never) extends (u: infer I) => void ? I : never;

/**
 * `APIError.details`: every field a known code carries (see {@link ErrorDetailsByCode} for which
 * code carries which), each optional because it depends on the code, plus whatever a newer server
 * adds. `error.details?.openToolCalls` is `OpenToolCall[] | undefined`.
 */
export type ErrorDetails = Partial<Merged<AllDetails>> & { [field: string]: unknown };

/** The details of one code: `ErrorDetailsOf<'tool_calls_open'>` is `{ openToolCalls: OpenToolCall[] }`. */
export type ErrorDetailsOf<C extends ErrorCode | (string & {})> = C extends keyof ErrorDetailsByCode
  ? ErrorDetailsByCode[C] & { [field: string]: unknown }
  : Record<string, unknown>;
