// The stream scanner the SDK shares with the reference server's proxy: one copy, in
// `@parley/protocol` (dependency-free). The SDK's build inlines it here (tsup.config.ts), so
// installing the SDK installs neither `@parley/protocol` nor zod; this is the one SDK module that
// imports the protocol package at all (biome.json).
export type { StreamBodyHandlers, StreamBodyScannerOptions } from '@parley/protocol/stream-body-scanner';
export { StreamBodyScanner } from '@parley/protocol/stream-body-scanner';
