import type { JsonObject } from '@parley/protocol';
import { ModelError, type ModelRequest } from './model.js';
import { PROVIDER_TOOL_SEPARATOR, SEARCH_DOCUMENTS_TOOL } from './tool-names.js';
import type { ScriptedToolUse } from './turn.js';

/** What the directives of one user message ask the stand-in model to do. */
export interface TurnPlan {
  /** `/say` lines, joined with newlines into the text block. */
  say: string[];
  /** `/tool` lines (and other tool-calling directives), in order. */
  toolUses: ScriptedToolUse[];
  /** `/then` lines: the answer once the tool results come back. */
  afterToolResults: string[];
  /** `/fail`: the ModelError message. */
  fail: string | undefined;
  /** `/fail-once`: the ModelError message of the first reply to this message only. */
  failOnce: string | undefined;
  /** `/delay`: milliseconds between deltas. */
  delayMs: number | undefined;
}

/** Where a directive sits, for error messages, and the request it answers. */
export interface DirectiveContext {
  /** The whole line as written. */
  line: string;
  /** 1-based line number within the message text. */
  lineNumber: number;
  request: ModelRequest;
}

/** One `/word ARGUMENT` directive of the stand-in model. */
export interface Directive {
  /** The syntax, for docs and error messages, e.g. `/tool NAME {json}`. */
  syntax: string;
  /** Records what the directive asks for in `plan`; throw {@link directiveError} on a bad argument. */
  apply(argument: string, plan: TurnPlan, context: DirectiveContext): void;
}

/** A ModelError that names the offending line. */
export function directiveError(context: DirectiveContext, reason: string): ModelError {
  return new ModelError(`Bad directive on line ${context.lineNumber} ("${context.line}"): ${reason}`);
}

/** Parses the JSON object argument of a directive (`{}` when empty); `example` shows a valid one. */
export function parseJsonObjectArgument(
  text: string,
  context: DirectiveContext,
  example = '{"city":"Paris"}',
): JsonObject {
  if (text.trim() === '') return {};
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw directiveError(context, `the input is not valid JSON (${(error as Error).message})`);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw directiveError(context, `the input must be a JSON object, like ${example}`);
  }
  return value as JsonObject;
}

/** Splits `NAME rest` at the first whitespace. */
export function splitFirstWord(argument: string): [word: string, rest: string] {
  const trimmed = argument.trim();
  const space = trimmed.search(/\s/);
  return space === -1 ? [trimmed, ''] : [trimmed.slice(0, space), trimmed.slice(space + 1).trim()];
}

/**
 * Stand-in model directives for the extensions:
 *
 * - `/search QUERY` calls the retrieval tool: `search_documents {"query": QUERY}`.
 * - `/mcp PROVIDER.TOOL {json}` calls a gateway provider tool: `PROVIDER__TOOL {json}`.
 *
 * Pass them to `createStandInModel({ directives: EXTENSION_DIRECTIVES })`, or merge them into a
 * table of your own. {@link DIRECTIVES} includes them.
 */
export const EXTENSION_DIRECTIVES: Readonly<Record<string, Directive>> = {
  search: {
    syntax: '/search QUERY',
    apply(argument, plan, context) {
      const query = argument.trim();
      if (query === '') throw directiveError(context, 'expected /search QUERY');
      plan.toolUses.push({ name: SEARCH_DOCUMENTS_TOOL, input: { query } });
    },
  },
  mcp: {
    syntax: '/mcp PROVIDER.TOOL {json}',
    apply(argument, plan, context) {
      const [target, json] = splitFirstWord(argument);
      const dot = target.indexOf('.');
      if (dot <= 0 || dot === target.length - 1) {
        throw directiveError(
          context,
          'expected /mcp PROVIDER.TOOL {json}, e.g. /mcp erp.get_customer {"customerId":"C-1001"}',
        );
      }
      const provider = target.slice(0, dot);
      const tool = target.slice(dot + 1).replace(/[^a-zA-Z0-9_-]/g, '_');
      plan.toolUses.push({
        name: `${provider}${PROVIDER_TOOL_SEPARATOR}${tool}`,
        input: parseJsonObjectArgument(json, context, '{"customerId":"C-1001"}'),
      });
    },
  },
};

/**
 * The stand-in model's directives, keyed by the word after the slash. Adding a directive is one
 * entry here (or pass `directives` to `createStandInModel`).
 */
export const DIRECTIVES: Readonly<Record<string, Directive>> = {
  say: {
    syntax: '/say TEXT',
    apply(argument, plan) {
      plan.say.push(argument);
    },
  },
  tool: {
    syntax: '/tool NAME {json}',
    apply(argument, plan, context) {
      const [name, json] = splitFirstWord(argument);
      if (name === '') throw directiveError(context, 'expected /tool NAME {json}');
      plan.toolUses.push({ name, input: parseJsonObjectArgument(json, context) });
    },
  },
  // biome-ignore lint/suspicious/noThenProperty: the /then directive; an object, not a thenable.
  then: {
    syntax: '/then TEXT',
    apply(argument, plan) {
      plan.afterToolResults.push(argument);
    },
  },
  fail: {
    syntax: '/fail MESSAGE',
    apply(argument, plan) {
      plan.fail = argument.trim() || 'The stand-in model was asked to fail';
    },
  },
  'fail-once': {
    syntax: '/fail-once MESSAGE',
    apply(argument, plan) {
      plan.failOnce = argument.trim() || 'The stand-in model was asked to fail once';
    },
  },
  delay: {
    syntax: '/delay MS',
    apply(argument, plan, context) {
      const ms = Number(argument.trim());
      if (argument.trim() === '' || !Number.isFinite(ms) || ms < 0) {
        throw directiveError(context, 'expected /delay MS with MS a number of milliseconds >= 0');
      }
      plan.delayMs = ms;
    },
  },
  // `/search QUERY` and `/mcp PROVIDER.TOOL {json}`: the retrieval and gateway tools.
  ...EXTENSION_DIRECTIVES,
};

/** A directive line: a slash, a lowercase word, then nothing or one space or tab and the argument. */
// `s`: a line is split at \n only, so U+2028 and U+2029 are ordinary characters of the argument.
const DIRECTIVE_LINE = /^\/([a-z][a-z0-9_-]*)(?:[ \t](.*))?$/s;

export interface ParsedMessage {
  plan: TurnPlan;
  /** The lines that are not directives (unknown `/word` lines included), in order. */
  plainLines: string[];
  /** Whether any line was a known directive. */
  hasDirectives: boolean;
}

/**
 * Reads the directives of a user message's text, one per line. Lines that do not start with a known
 * `/word` are plain text, so "/usr/bin is a folder" stays a sentence.
 */
export function parseDirectives(
  text: string,
  request: ModelRequest,
  directives: Readonly<Record<string, Directive>> = DIRECTIVES,
): ParsedMessage {
  const plan: TurnPlan = {
    say: [],
    toolUses: [],
    afterToolResults: [],
    fail: undefined,
    failOnce: undefined,
    delayMs: undefined,
  };
  const plainLines: string[] = [];
  let hasDirectives = false;
  const lines = text.split(/\r?\n/);
  for (const [i, line] of lines.entries()) {
    const match = DIRECTIVE_LINE.exec(line.trimStart());
    const word = match?.[1];
    // hasOwn: "/constructor" must not find Object.prototype.constructor.
    const directive = word !== undefined && Object.hasOwn(directives, word) ? directives[word] : undefined;
    if (directive === undefined) {
      plainLines.push(line);
      continue;
    }
    hasDirectives = true;
    directive.apply(match?.[2] ?? '', plan, { line, lineNumber: i + 1, request });
  }
  return { plan, plainLines, hasDirectives };
}
