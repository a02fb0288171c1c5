// Checked by `tsc -p packages/sdk`: the names a plain-JavaScript typo is compared with
// (internal/unknown-options.ts) are exactly the keys of the SDK's public options types, so a new
// option is one more name there and a removed one leaves no stale name.
import type {
  CreateSessionParams,
  DefineToolOptions,
  ParleyOptions,
  RecoverOptions,
  RequestOptions,
  RunToolLoopOptions,
  SendRequestOptions,
  StreamRequestOptions,
} from '@parley/sdk';
import type { HeartbeatOptions, RunToolOptions } from '@parley/sdk/tools';
import type { WorkerHandlerOptions } from '@parley/sdk/worker';
import { expectTypeOf } from 'vitest';
import type { OPTION_NAMES } from '../../src/internal/unknown-options.js';
import type { ExportMessagesParams } from '../../src/resources/messages.js';

type OptionKey =
  | keyof ParleyOptions
  | keyof RequestOptions
  | keyof SendRequestOptions
  | keyof StreamRequestOptions
  | keyof ExportMessagesParams
  | keyof CreateSessionParams
  | keyof RecoverOptions
  | keyof RunToolLoopOptions
  | keyof RunToolOptions
  | keyof HeartbeatOptions
  | keyof DefineToolOptions<never, never>
  | 'definition' // a defined tool spread into a new definition (`defineTool({ ...tool, run })`)
  | keyof WorkerHandlerOptions;
type Named = (typeof OPTION_NAMES)[number];

// Each side's leftovers are `never`: a name missing from the list (or a stale one) fails here.
const missing: Exclude<OptionKey, Named>[] = [];
const stale: Exclude<Named, OptionKey>[] = [];
expectTypeOf(missing).toEqualTypeOf<never[]>();
expectTypeOf(stale).toEqualTypeOf<never[]>();
