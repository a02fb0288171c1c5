import * as z from 'zod';
import type { Model, ModelRequest } from './model.js';
import { loadScript } from './script-file.js';
import {
  InvalidScriptError,
  MatchSchema,
  scriptIssues,
  TextMatcherSchema,
  TurnSchema,
} from './script-schema.js';
import type { Script, ScriptedTurn } from './script-types.js';

const isFunction = (value: unknown) => typeof value === 'function';

// A script given in code is the script file's format (the same schemas as `PUT /_parley/script`)
// plus what only code can hold: a RegExp matcher, a `when` function and a fallback model.
const CodeRulesSchema = z.strictObject({
  rules: z.array(
    z.strictObject({
      name: z.string().optional(),
      match: MatchSchema.extend({
        lastUserText: z.union([TextMatcherSchema, z.instanceof(RegExp)]).optional(),
        when: z.custom<(request: ModelRequest) => boolean>(isFunction, 'must be a function').optional(),
      }),
      reply: TurnSchema,
    }),
  ),
  strict: z.boolean().optional(),
  fallback: z.custom<Model>(isFunction, 'must be a model function').optional(),
});

const TurnsSchema = z.array(TurnSchema);

/**
 * Checks a script wherever it enters (`server.script(...)`, a test scope, `scriptedModel(...)`)
 * with the schemas of the script file and of `PUT /_parley/script`, and returns what
 * `scriptedModel` runs. A script file's content (`{ turns }` or `{ rules }` with `{ regex }`
 * matchers) is read as the file is. Throws {@link InvalidScriptError} naming each bad field.
 */
export function checkScript(script: unknown): Script {
  if (typeof script === 'function') return script as Script;
  if (Array.isArray(script)) {
    parsed(TurnsSchema, script);
    return script as ScriptedTurn[];
  }
  if (typeof script === 'object' && script !== null && 'turns' in script) return loadScript(script);
  if (typeof script === 'object' && script !== null && !hasCodeOnly(script)) return loadScript(script);
  parsed(CodeRulesSchema, script);
  return script as Script;
}

/** A rules script that holds a RegExp, a function or a fallback: code only, no file could. */
function hasCodeOnly(script: object): boolean {
  if ('fallback' in script) return true;
  const rules = (script as { rules?: unknown }).rules;
  if (!Array.isArray(rules)) return false;
  return rules.some((rule) => {
    const match = (rule as { match?: Record<string, unknown> } | null)?.match;
    return match?.lastUserText instanceof RegExp || match?.when !== undefined;
  });
}

/** Checks one scripted turn (the `turn` builders' result) as a script's turn is checked. */
export function checkTurn(turn: ScriptedTurn): ScriptedTurn {
  parsed(TurnSchema, turn);
  return turn;
}

function parsed(schema: z.ZodType, value: unknown): void {
  const result = schema.safeParse(value);
  if (!result.success) throw new InvalidScriptError(scriptIssues(result.error));
}
