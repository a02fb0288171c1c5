// Lets a worker thread load the SDK's TypeScript sources (the `@parley/source` condition): on
// Node 20, `--import tsx` registers tsx on the main thread only, so the worker registers it itself.
import { register } from 'tsx/esm/api';

register();
