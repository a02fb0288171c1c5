/** A script in the script file format: `{ turns }`, `{ rules }` or a list of turns (docs/stand-in-model.md). */
export type ScriptJson = { turns: unknown[] } | { rules: unknown[] } | unknown[];
