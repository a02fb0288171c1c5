import type { JsonObject, StopReason } from '@parley/protocol';
import type { Model, ModelEvent, ModelRequest } from './model.js';
import type { StreamPace } from './stream-pace-options.js';

// The shapes of a script, as code gives it (`server.script(...)`, `scriptedModel(...)`) and as a
// script file holds it (the file's format is their JSON subset: check-script.ts).

/** One tool call of a scripted turn. */
export interface ScriptedToolUse {
  name: string;
  input: JsonObject;
  /** The toolUseId; a fresh `tooluse_...` id when omitted. */
  id?: string;
}

/**
 * One assistant message as plain data (so it can be loaded from JSON). Both the stand-in model and
 * the scripted models stream it through {@link turnToEvents}.
 */
export interface ScriptedTurn {
  /** The text block, streamed word by word. No text block when omitted or empty. */
  text?: string;
  /** tool_use blocks, after the text block. */
  toolUses?: ScriptedToolUse[];
  /** Overrides the computed stop reason (`tool_use` with tool uses, `max_tokens` when cut, else `end_turn`). */
  stopReason?: StopReason;
  /** Fail with this message: after streaming the text (a mid-stream failure), or before any event without text. */
  fail?: string;
  /** Milliseconds of the request's clock to wait between two deltas. */
  delayMs?: number;
  /**
   * How fast this turn streams (time to first event, words per second, seeded jitter); wins over
   * the session's and the server's pace (`request.pace`).
   */
  pace?: StreamPace;
}

/** What a script function may return for one request. */
export type ScriptedReply = ScriptedTurn | ModelEvent[] | AsyncIterable<ModelEvent>;
/** A script as code: decide each assistant message from the request. */
export type ScriptFunction = (request: ModelRequest) => ScriptedReply | Promise<ScriptedReply>;

/** A text matcher: a substring, a RegExp, or a regex as JSON (`{ "regex": "^hi", "flags": "i" }`). */
export type TextMatcher = string | RegExp | { regex: string; flags?: string };

/** Conditions on the conversation; every condition given must hold. `{}` matches every request. */
export interface TurnMatch {
  /** The text of the last user message (`""` when it holds tool results) contains this, or matches this regex. */
  lastUserText?: TextMatcher;
  /** Whether the last user message holds tool results. */
  hasToolResult?: boolean;
  /** Whether one of those tool results is an error (ERROR or ABANDONED calls). */
  hasToolError?: boolean;
  /** `request.turn`: how many assistant messages the session had before this one. */
  turn?: number;
  /** A partial deep match on the session's customizations (objects may have more keys; arrays match whole). */
  customizations?: Record<string, unknown>;
  /** Escape hatch: any predicate on the request. */
  when?: (request: ModelRequest) => boolean;
}

/** A scripted rule: the first rule whose `match` holds answers with its `reply`. */
export interface ScriptRule {
  /** Shown in the no-match error. */
  name?: string;
  match: TurnMatch;
  reply: ScriptedTurn;
}

export interface ScriptRules {
  rules: ScriptRule[];
  /** No rule matches: `true` (default) fails with `no_script_match`; `false` asks `fallback`. */
  strict?: boolean;
  /** The model for unmatched requests when not strict; the stand-in model by default. */
  fallback?: Model;
}

/** Everything `scriptedModel` accepts. */
export type Script = ScriptedTurn[] | ScriptFunction | ScriptRules;
