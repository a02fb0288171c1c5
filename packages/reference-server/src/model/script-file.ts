import type * as z from 'zod';
import { findLostProtoKey, PROTO_KEY } from '../utils/lost-proto-key.js';
import {
  formatPath,
  InvalidScriptError,
  type MatchSchema,
  ScriptFileSchema,
  type TextMatcherSchema,
  type ToolUseSchema,
  type TurnSchema,
} from './script-schema.js';
import type {
  ScriptedToolUse,
  ScriptedTurn,
  ScriptRule,
  ScriptRules,
  TextMatcher,
  TurnMatch,
} from './script-types.js';
import type { StreamPace } from './stream-pace-options.js';

export { InvalidScriptError, isInvalidScriptError } from './script-schema.js';

/**
 * Validates the parsed content of a JSON script file and returns what `scriptedModel` takes:
 * `{ "turns": [...] }` becomes a list of turns, `{ "rules": [...], "strict"?: boolean }` rules
 * (regexes as `{ "regex", "flags" }`). Throws {@link InvalidScriptError} naming the bad fields.
 *
 * @example
 * const model = scriptedModel(loadScript(JSON.parse(await readFile('script.json', 'utf8'))));
 */
export function loadScript(json: unknown): ScriptedTurn[] | ScriptRules {
  const result = ScriptFileSchema.safeParse(json);
  if (!result.success) {
    throw new InvalidScriptError(
      result.error.issues.map((issue) => ({ path: formatPath(issue.path), message: issue.message })),
    );
  }
  const lost = findLostProtoKey(json, result.data);
  if (lost !== undefined) {
    throw new InvalidScriptError([
      {
        path: formatPath(lost),
        message: `a key named "${PROTO_KEY}" is not accepted here (it could not be kept)`,
      },
    ]);
  }
  const file = result.data;
  if (file.turns !== undefined) return file.turns.map(toTurn);
  const rules = (file.rules ?? []).map(
    (rule): ScriptRule => ({
      ...(rule.name === undefined ? {} : { name: rule.name }),
      match: toMatch(rule.match),
      reply: toTurn(rule.reply),
    }),
  );
  return file.strict === undefined ? { rules } : { rules, strict: file.strict };
}

// The conversions below drop `undefined` members (exactOptionalPropertyTypes).

function toTurn(parsed: z.infer<typeof TurnSchema>): ScriptedTurn {
  const turn: ScriptedTurn = {};
  if (parsed.text !== undefined) turn.text = parsed.text;
  if (parsed.toolUses !== undefined) turn.toolUses = parsed.toolUses.map(toToolUse);
  if (parsed.stopReason !== undefined) turn.stopReason = parsed.stopReason;
  if (parsed.fail !== undefined) turn.fail = parsed.fail;
  if (parsed.delayMs !== undefined) turn.delayMs = parsed.delayMs;
  // zod leaves out keys the file does not have: no undefined member to drop.
  if (parsed.pace !== undefined) turn.pace = parsed.pace as StreamPace;
  return turn;
}

function toToolUse(parsed: z.infer<typeof ToolUseSchema>): ScriptedToolUse {
  const toolUse: ScriptedToolUse = { name: parsed.name, input: parsed.input ?? {} };
  if (parsed.id !== undefined) toolUse.id = parsed.id;
  return toolUse;
}

function toMatch(parsed: z.infer<typeof MatchSchema>): TurnMatch {
  const match: TurnMatch = {};
  if (parsed.lastUserText !== undefined) match.lastUserText = toTextMatcher(parsed.lastUserText);
  if (parsed.hasToolResult !== undefined) match.hasToolResult = parsed.hasToolResult;
  if (parsed.hasToolError !== undefined) match.hasToolError = parsed.hasToolError;
  if (parsed.turn !== undefined) match.turn = parsed.turn;
  if (parsed.customizations !== undefined) match.customizations = parsed.customizations;
  return match;
}

function toTextMatcher(parsed: z.infer<typeof TextMatcherSchema>): TextMatcher {
  if (typeof parsed === 'string') return parsed;
  return parsed.flags === undefined ? { regex: parsed.regex } : { regex: parsed.regex, flags: parsed.flags };
}
