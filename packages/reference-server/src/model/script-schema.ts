import * as z from 'zod';

// The one validation of a script, wherever it enters: a script file, `PUT /_parley/script`,
// `server.script(...)`, `scriptedModel(...)` and the `turn` builders all check with these schemas
// and throw an InvalidScriptError naming each bad field by its path.

export const ToolUseSchema = z.strictObject({
  name: z.string().min(1),
  input: z.record(z.string(), z.unknown()).optional(),
  id: z.string().min(1).optional(),
});

export const TurnSchema = z.strictObject({
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

export const RegexSchema = z
  .strictObject({ regex: z.string(), flags: z.string().optional() })
  .superRefine((value, ctx) => {
    try {
      new RegExp(value.regex, value.flags);
    } catch (error) {
      ctx.addIssue({ code: 'custom', path: ['regex'], message: (error as Error).message });
    }
  });

export const TextMatcherSchema = z.union([z.string(), RegexSchema], {
  error: 'must be a substring or {"regex": "...", "flags": "i"}',
});

export const MatchSchema = z.strictObject({
  lastUserText: TextMatcherSchema.optional(),
  hasToolResult: z.boolean().optional(),
  hasToolError: z.boolean().optional(),
  turn: z.number().int().nonnegative().optional(),
  customizations: z.record(z.string(), z.unknown()).optional(),
});

export const RuleSchema = z.strictObject({
  name: z.string().optional(),
  match: MatchSchema,
  reply: TurnSchema,
});

export const ScriptFileSchema = z
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

/** The issues of a failed parse as {@link InvalidScriptError} lists them: a path (`turns[0].text`) and a message. */
export function scriptIssues(error: z.ZodError): Array<{ path: string; message: string }> {
  return error.issues.map((issue) => ({ path: formatPath(issue.path), message: issue.message }));
}

/** `['rules', 0, 'match', 'lastUserText']` → `rules[0].match.lastUserText`. */
export function formatPath(path: readonly PropertyKey[]): string {
  let text = '';
  for (const key of path) {
    if (typeof key === 'number') text += `[${key}]`;
    else if (typeof key === 'string' && /^[A-Za-z_$][\w$]*$/.test(key)) text += text === '' ? key : `.${key}`;
    else text += `[${JSON.stringify(String(key))}]`;
  }
  return text === '' ? '(root)' : text;
}
