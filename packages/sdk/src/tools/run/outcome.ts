import type { ToolObject } from '../define/tool-schema.js';

/** What running a handler came to, before anything is reported. */
export type Outcome =
  | { kind: 'complete'; output: ToolObject }
  | { kind: 'error'; message: string; cause: unknown };
