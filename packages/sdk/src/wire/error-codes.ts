// The error-code table the SDK shares with the server: one copy, in `@parley/protocol`
// (zod-free). The SDK's build inlines it here, its types included (tsup.config.ts), so installing
// the SDK installs neither `@parley/protocol` nor zod.
export { ERROR_CODES, type ErrorCode } from '@parley/protocol/error-codes';
