import { checkScript } from './check-script.js';
import { lastUserMessage, textOf, toolResultsOf } from './conversation.js';
import { type Model, ModelError, type ModelEvent, type ModelRequest } from './model.js';
import { pacedLazily } from './paced-lazily.js';
import type {
  Script,
  ScriptedReply,
  ScriptedTurn,
  ScriptRule,
  ScriptRules,
  TextMatcher,
} from './script-types.js';
import { standInModel } from './stand-in-model.js';
import { turnToEvents } from './turn.js';

/**
 * A model that plays scripted turns, for tests that want exact assistant messages:
 * - a list: served one per call in call order (across all sessions of the model); a call past the
 *   end fails with code `no_script_match`;
 * - a function: returns a {@link ScriptedTurn}, raw events, or an async iterable of events;
 * - rules: the first rule whose `match` holds replies; none in strict mode fails with code
 *   `no_script_match` and a message listing every rule tried and why it did not match.
 *
 * @example
 * scriptedModel({
 *   rules: [
 *     { match: { hasToolResult: true }, reply: turn.text('Sunny.') },
 *     { match: { lastUserText: /weather/i }, reply: turn.toolUse('get_weather', { city: 'Paris' }) },
 *   ],
 * });
 */
export function scriptedModel(given: Script): Model {
  const script = checkScript(given);
  if (typeof script === 'function') return (request) => fromReply(script(request), request);
  if (Array.isArray(script)) return listModel(script);
  return rulesModel(script);
}

function listModel(turns: readonly ScriptedTurn[]): Model {
  let calls = 0;
  return (request) => {
    const call = ++calls;
    const next = turns[call - 1];
    if (next === undefined) {
      return failing(
        new ModelError(
          `The scripted model has ${turns.length} turn${turns.length === 1 ? '' : 's'} and all were used; ` +
            `this is call ${call}`,
          { code: 'no_script_match' },
        ),
      );
    }
    return turnToEvents(next, request);
  };
}

interface CompiledRule {
  label: string;
  rule: ScriptRule;
  text: ((text: string) => boolean) | undefined;
}

function rulesModel({ rules, strict = true, fallback = standInModel }: ScriptRules): Model {
  const compiled: CompiledRule[] = rules.map((rule, i) => ({
    label: `#${i + 1}${rule.name === undefined ? '' : ` "${rule.name}"`}`,
    rule,
    text: rule.match.lastUserText === undefined ? undefined : textTest(rule.match.lastUserText),
  }));
  return (request) => {
    const facts = conversationFacts(request);
    const misses: string[] = [];
    for (const candidate of compiled) {
      const miss = mismatch(candidate, facts, request);
      if (miss === undefined) return turnToEvents(candidate.rule.reply, request);
      misses.push(`${candidate.label}: ${miss}`);
    }
    if (!strict) return fallback(request);
    const tried = misses.length === 0 ? 'the script has no rules' : `tried ${misses.join('; ')}`;
    return failing(
      new ModelError(
        `No scripted rule matched turn ${request.turn} (last user text ${quote(facts.lastUserText)}, ` +
          `tool results: ${facts.hasToolResult ? (facts.hasToolError ? 'with an error' : 'yes') : 'none'}); ` +
          tried,
        { code: 'no_script_match' },
      ),
    );
  };
}

interface ConversationFacts {
  lastUserText: string;
  hasToolResult: boolean;
  hasToolError: boolean;
}

function conversationFacts(request: ModelRequest): ConversationFacts {
  const last = lastUserMessage(request.messages);
  const results = last === undefined ? [] : toolResultsOf(last);
  return {
    lastUserText: last === undefined || results.length > 0 ? '' : textOf(last),
    hasToolResult: results.length > 0,
    hasToolError: results.some((result) => result.is_error),
  };
}

/** Why the rule does not match, or undefined when it does. */
function mismatch(
  candidate: CompiledRule,
  facts: ConversationFacts,
  request: ModelRequest,
): string | undefined {
  const { match } = candidate.rule;
  if (candidate.text !== undefined && !candidate.text(facts.lastUserText)) {
    return `lastUserText ${describeMatcher(match.lastUserText)} did not match`;
  }
  if (match.hasToolResult !== undefined && match.hasToolResult !== facts.hasToolResult) {
    return `hasToolResult is ${facts.hasToolResult}, not ${match.hasToolResult}`;
  }
  if (match.hasToolError !== undefined && match.hasToolError !== facts.hasToolError) {
    return `hasToolError is ${facts.hasToolError}, not ${match.hasToolError}`;
  }
  if (match.turn !== undefined && match.turn !== request.turn) {
    return `turn is ${request.turn}, not ${match.turn}`;
  }
  if (match.customizations !== undefined && !partialMatch(request.customizations, match.customizations)) {
    return `customizations do not match ${JSON.stringify(match.customizations)}`;
  }
  if (match.when !== undefined && !match.when(request)) return 'when() returned false';
  return undefined;
}

function textTest(matcher: TextMatcher): (text: string) => boolean {
  if (typeof matcher === 'string') return (text) => text.includes(matcher);
  const source = matcher instanceof RegExp ? matcher : new RegExp(matcher.regex, matcher.flags);
  // Drop g and y: they make test() stateful through lastIndex.
  const regex = new RegExp(source.source, source.flags.replace(/[gy]/g, ''));
  return (text) => regex.test(text);
}

function describeMatcher(matcher: TextMatcher | undefined): string {
  if (matcher === undefined || typeof matcher === 'string') return quote(matcher ?? '');
  return matcher instanceof RegExp ? String(matcher) : `/${matcher.regex}/${matcher.flags ?? ''}`;
}

function quote(text: string): string {
  return JSON.stringify(text.length > 60 ? `${text.slice(0, 60)}...` : text);
}

/** Every key of `expected` matches in `actual`, recursively; arrays and primitives match whole. */
export function partialMatch(actual: unknown, expected: unknown): boolean {
  if (Array.isArray(expected)) {
    return (
      Array.isArray(actual) &&
      actual.length === expected.length &&
      expected.every((item, i) => partialMatch(actual[i], item))
    );
  }
  if (isPlainObject(expected)) {
    if (!isPlainObject(actual)) return false;
    return Object.keys(expected).every(
      (key) => Object.hasOwn(actual, key) && partialMatch(actual[key], expected[key]),
    );
  }
  return Object.is(actual, expected);
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

async function* fromReply(
  reply: ScriptedReply | Promise<ScriptedReply>,
  request: ModelRequest,
): AsyncGenerator<ModelEvent> {
  const resolved = await reply;
  if (Array.isArray(resolved)) {
    const events = eventsOf(resolved, request);
    yield* request.pace === undefined ? events : pacedLazily(events, request.pace, request);
  } else if (Symbol.asyncIterator in resolved) {
    yield* request.pace === undefined ? resolved : pacedLazily(resolved, request.pace, request);
  } else {
    yield* turnToEvents(resolved, request);
  }
}

async function* eventsOf(events: readonly ModelEvent[], request: ModelRequest): AsyncGenerator<ModelEvent> {
  for (const event of events) {
    request.signal.throwIfAborted();
    yield event;
  }
}

/** Events that fail on the first `next()`, like a generator that throws before its first event. */
function failing(error: Error): AsyncIterable<ModelEvent> {
  return { [Symbol.asyncIterator]: () => ({ next: () => Promise.reject(error) }) };
}
