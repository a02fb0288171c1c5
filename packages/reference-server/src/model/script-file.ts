import * as z from 'zod';
import { findLostProtoKey, PROTO_KEY } from '../utils/lost-proto-key.js';
import type { ScriptRule, ScriptRules, TextMatcher, TurnMatch } from './scripted-model.js';
import type { StreamPace } from './stream-pace-options.js';
import type { ScriptedToolUse, ScriptedTurn } from './turn.js';

const ToolUseSchema = z.strictObject({
  name: z.string().min(1),
  input: z.record(z.string(), z.unknown()).optional(),
  id: z.string().min(1).optional(),
});

const TurnSchema = z.strictObject({
  text: z.string().optional(),
  toolUses: z.array(ToolUseSchema).optional(),
  stopReason: z.string().min(1).optional(),
  fail: z.string().min(1).optional(),
  delayMs: z.number().nonnegative().finite().optional(),
  pace: z
    .strictObject({
      ttftMs: z.number().nonnegative().finite().optional(),
      wordsPerSecond: z.number().nonnegative().finite().optional(),
      jitter: z.number().min(0).max(1).optional(),
      seed: z.int().optional(),
    })
    .optional(),
});

const RegexSchema = z
  .strictObject({ regex: z.string(), flags: z.string().optional() })
  .superRefine((value, ctx) => {
    try {
      new RegExp(value.regex, value.flags);
    } catch (error) {
      ctx.addIssue({ code: 'custom', path: ['regex'], message: (error as Error).message });
    }
  });

const TextMatcherSchema = z.union([z.string(), RegexSchema], {
  error: 'must be a substring or {"regex": "...", "flags": "i"}',
});

const MatchSchema = z.strictObject({
  lastUserText: TextMatcherSchema.optional(),
  hasToolResult: z.boolean().optional(),
  hasToolError: z.boolean().optional(),
  turn: z.number().int().nonnegative().optional(),
  customizations: z.record(z.string(), z.unknown()).optional(),
});

const RuleSchema = z.strictObject({
  name: z.string().optional(),
  match: MatchSchema,
  reply: TurnSchema,
});

const ScriptFileSchema = z
  .strictObject({
    description: z.string().optional(),
    strict: z.boolean().optional(),
    rules: z.array(RuleSchema).optional(),
    turns: z.array(TurnSchema).optional(),
  })
  .superRefine((file, ctx) => {
    if ((file.rules === undefined) === (file.turns === undefined)) {
      ctx.addIssue({ code: 'custom', message: 'a script has either "rules" or "turns"' });
    }
    if (file.turns !== undefined && file.strict !== undefined) {
      ctx.addIssue({ code: 'custom', path: ['strict'], message: 'applies to "rules" only' });
    }
  });

/** A script file that breaks the format; `issues` name each bad field by its path. */
export class InvalidScriptError extends Error {
  override name = 'InvalidScriptError' as const;
  readonly issues: ReadonlyArray<{ path: string; message: string }>;
  constructor(issues: ReadonlyArray<{ path: string; message: string }>) {
    super(`Invalid script: ${issues.map((issue) => `${issue.path}: ${issue.message}`).join('; ')}`);
    this.issues = issues;
  }
}

export function isInvalidScriptError(error: unknown): error is InvalidScriptError {
  return error instanceof Error && error.name === 'InvalidScriptError';
}

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

/** `['rules', 0, 'match', 'lastUserText']` → `rules[0].match.lastUserText`. */
function formatPath(path: readonly PropertyKey[]): string {
  let text = '';
  for (const key of path) {
    if (typeof key === 'number') text += `[${key}]`;
    else if (typeof key === 'string' && /^[A-Za-z_$][\w$]*$/.test(key)) text += text === '' ? key : `.${key}`;
    else text += `[${JSON.stringify(String(key))}]`;
  }
  return text === '' ? '(root)' : text;
}
