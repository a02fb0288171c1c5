import type { Message, ToolResultBlock } from '@parley/protocol';
import { checkOptions, type OptionKeys } from '../utils/check-options.js';
import { findToolUse, lastUserMessage, lastUserTextMessage, textOf, toolResultsOf } from './conversation.js';
import { DIRECTIVES, type Directive, parseDirectives, type TurnPlan } from './directives.js';
import { FirstTime } from './first-time.js';
import type { Model, ModelRequest } from './model.js';
import { type ScriptedTurn, type TurnStreamOptions, turnToEvents } from './turn.js';

/** The text that tool_result blocks of abandoned calls start with. */
const ABANDONED_PREFIX = 'Tool call abandoned';

export interface StandInModelOptions {
  /** Extra directives, merged over (and able to replace) the built-in ones, keyed by the word after `/`. */
  directives?: Readonly<Record<string, Directive>>;
  /**
   * Longest fragment of a tool's input JSON in `delta.toolUse.input`, in characters (default 4);
   * the input always comes in two fragments or more. `1` streams it character by character.
   */
  toolInputFragmentLength?: number;
}

/** Every key of {@link StandInModelOptions}: a new option is one more line here (TypeScript fails until it is). */
export const STAND_IN_OPTION_KEYS = {
  directives: 'object',
  toolInputFragmentLength: 'number',
} as const satisfies OptionKeys<StandInModelOptions>;

/**
 * Decides the stand-in model's answer to a request, as plain data (see `docs/stand-in-model.md`):
 * - last user message is text: its directives (`/say`, `/tool`, `/then`, `/fail`, `/fail-once`,
 *   `/delay`), or `You said: <text>` without any;
 * - last user message holds tool results: the `/then` text of the message that started the tool
 *   round, else one summary line per result.
 *
 * `firstTime` tells the first reply to a user message from the next ones (`/fail-once`); without
 * it every reply is a first one. Throws a ModelError for a malformed directive.
 */
export function standInTurn(
  request: ModelRequest,
  directives: Readonly<Record<string, Directive>> = DIRECTIVES,
  firstTime?: FirstTime,
): ScriptedTurn {
  const last = lastUserMessage(request.messages);
  if (last === undefined) return { text: 'There is no user message to answer.' };

  const results = toolResultsOf(last);
  if (results.length > 0) {
    const origin = lastUserTextMessage(request.messages);
    const plan = origin === undefined ? undefined : parseDirectives(textOf(origin), request, directives).plan;
    const text =
      plan !== undefined && plan.afterToolResults.length > 0
        ? plan.afterToolResults.join('\n')
        : results.map((result) => summarizeToolResult(result, request.messages)).join('\n');
    return withDelay({ text }, plan);
  }

  const text = textOf(last);
  const { plan, plainLines, hasDirectives } = parseDirectives(text, request, directives);
  // `/fail-once` fails the first reply to this message as `/fail` would; later replies (a resume)
  // answer as if the line were not there.
  if (plan.failOnce !== undefined && plan.fail === undefined) {
    if (firstTime?.check(`${request.sessionId}#${last.index}`) ?? true) plan.fail = plan.failOnce;
  }
  if (plan.say.length === 0 && plan.toolUses.length === 0 && plan.fail === undefined) {
    // Only modifiers such as /delay or /then: echo the plain lines.
    const plain = hasDirectives ? plainLines.join('\n').trim() : text;
    return withDelay({ text: `You said: ${plain === '' ? text : plain}` }, plan);
  }
  const turn: ScriptedTurn = { text: plan.say.join('\n') };
  if (plan.toolUses.length > 0) turn.toolUses = plan.toolUses;
  if (plan.fail !== undefined) turn.fail = plan.fail;
  return withDelay(turn, plan);
}

/**
 * One line about one tool result: `Tool NAME returned {json}.`, `Tool NAME failed: MESSAGE.` or
 * `Tool NAME was abandoned: REASON.` NAME comes from the matching tool_use block (the id if none).
 */
export function summarizeToolResult(result: ToolResultBlock, messages: readonly Message[]): string {
  const name = findToolUse(messages, result.tool_use_id)?.name ?? result.tool_use_id;
  const content = result.content
    .map((part) => (part.type === 'text' ? part.text : (JSON.stringify(part.json) ?? 'null')))
    .join(' ');
  if (!result.is_error) return sentence(`Tool ${name} returned ${content === '' ? 'no content' : content}`);
  if (content.startsWith(ABANDONED_PREFIX)) {
    const reason = content.slice(ABANDONED_PREFIX.length).replace(/^[:\s]+/, '');
    return sentence(reason === '' ? `Tool ${name} was abandoned` : `Tool ${name} was abandoned: ${reason}`);
  }
  return sentence(`Tool ${name} failed: ${content === '' ? 'no message' : content}`);
}

function sentence(text: string): string {
  return /[.!?]$/.test(text) ? text : `${text}.`;
}

function withDelay(turn: ScriptedTurn, plan: TurnPlan | undefined): ScriptedTurn {
  return plan?.delayMs === undefined ? turn : { ...turn, delayMs: plan.delayMs };
}

/** A stand-in model, optionally with extra directives. */
export function createStandInModel(options: StandInModelOptions = {}): Model {
  checkOptions(options, STAND_IN_OPTION_KEYS, 'createStandInModel()');
  const directives = options.directives === undefined ? DIRECTIVES : { ...DIRECTIVES, ...options.directives };
  // Which user messages this model already answered with a `/fail-once` failure.
  const firstTime = new FirstTime();
  const stream = { toolInputFragmentLength: options.toolInputFragmentLength };
  return (request) => streamStandIn(request, directives, firstTime, stream);
}

async function* streamStandIn(
  request: ModelRequest,
  directives: Readonly<Record<string, Directive>>,
  firstTime: FirstTime,
  options: TurnStreamOptions,
) {
  // Decide inside the generator so a bad directive rejects the first `next()`, like any model failure.
  yield* turnToEvents(standInTurn(request, directives, firstTime), request, options);
}

/**
 * The reference server's default model: deterministic and driven by the user's message text alone.
 *
 * @example
 * // A user message of
 * //   /say Let me check.
 * //   /tool get_weather {"city":"Paris"}
 * //   /then It is sunny in Paris.
 * // streams "Let me check.", calls get_weather, and answers "It is sunny in Paris." after the result.
 */
export const standInModel: Model = createStandInModel();
