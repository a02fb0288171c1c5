// The options check the SDK shares with the reference server: one copy, in `@parley/protocol`
// (dependency-free). The SDK's build inlines it here (tsup.config.ts), as it inlines the stream
// scanner, so installing the SDK installs neither `@parley/protocol` nor zod.
export type { OptionKeys } from '@parley/protocol/option-check';
export { checkId, checkOptions, describeValue, wrongValue } from '@parley/protocol/option-check';
