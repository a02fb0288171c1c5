// How a streamed message's events fold into its content, shared with the reference server's
// cassettes: one copy, in `@parley/protocol` (zod-free). The SDK's build inlines it here
// (tsup.config.ts), so installing the SDK installs neither `@parley/protocol` nor zod.
export { MessageFold, parseToolInput } from '@parley/protocol/reply-folding';
