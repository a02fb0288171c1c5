import type { JsonObject, StopReason } from '@parley/protocol';
import { checkTurn } from './check-script.js';
import { abortStateOf, ModelError, type ModelEvent, type ModelRequest } from './model.js';
import { countInputTokens, countWords, jsonFragments, newToolUseId, textChunks } from './model-events.js';
import { pacedLazily } from './paced-lazily.js';
import type { ScriptedToolUse, ScriptedTurn } from './script-types.js';

export type { ScriptedToolUse, ScriptedTurn } from './script-types.js';

/** How {@link turnToEvents} streams a turn. */
export interface TurnStreamOptions {
  /**
   * Longest fragment of a tool's input JSON, in characters (default
   * `DEFAULT_TOOL_INPUT_FRAGMENT_LENGTH`, 4); the input always comes in two fragments or more.
   */
  toolInputFragmentLength?: number | undefined;
}

/** Extra fields for the {@link turn} builders. */
export type TurnExtras = Omit<ScriptedTurn, 'toolUses'>;

/**
 * Builders for {@link ScriptedTurn}s; they return plain objects, checked as a script's turn is
 * (an InvalidScriptError names a bad field at once: `turn.text(42)`).
 *
 * @example
 * scriptedModel([
 *   turn.toolUse('get_weather', { city: 'Paris' }, { text: 'Let me check.' }),
 *   turn.text('It is sunny in Paris.'),
 * ]);
 */
export const turn = {
  /** Answer with text. */
  text: (text: string, extras: Omit<TurnExtras, 'text'> = {}): ScriptedTurn => checkTurn({ ...extras, text }),
  /** Call one tool (`extras.text` comes first in the message). */
  toolUse: (name: string, input: JsonObject = {}, extras: TurnExtras = {}): ScriptedTurn =>
    checkTurn({ ...extras, toolUses: [{ name, input }] }),
  /** Call several tools in one message. */
  toolUses: (toolUses: ScriptedToolUse[], extras: TurnExtras = {}): ScriptedTurn =>
    checkTurn({ ...extras, toolUses }),
  /** Fail with a ModelError (after streaming `extras.text`, if any). */
  fail: (message: string, extras: Omit<TurnExtras, 'fail'> = {}): ScriptedTurn =>
    checkTurn({ ...extras, fail: message }),
};

/**
 * Streams one {@link ScriptedTurn} as model events: `messageStart`, the text deltas and
 * `contentBlockStop`, then per tool use `contentBlockStart`, two or more input fragments (of at most
 * `options.toolInputFragmentLength` characters) and
 * `contentBlockStop`, then `messageStop` and `metadata` (words counted as tokens, latency from the
 * request's clock).
 *
 * - `request.parameters.maxTokens`: text longer than that many words is cut there, the tool uses are
 *   dropped and the stop reason is `max_tokens`.
 * - `turn.delayMs`: waits on `request.clock` between deltas.
 * - `request.signal`: once aborted, no further event is yielded; the iteration rejects with the
 *   signal's reason.
 * - `turn.fail`: throws a {@link ModelError} after the text deltas (before the text block closes).
 * - `turn.pace`, else `request.pace`: the events come at that pace on `request.clock`.
 */
export function turnToEvents(
  turn: ScriptedTurn,
  request: ModelRequest,
  options: TurnStreamOptions = {},
): AsyncGenerator<ModelEvent> {
  const events = turnEvents(turn, request, options);
  const pace = turn.pace ?? request.pace;
  return pace === undefined ? events : pacedLazily(events, pace, request);
}

async function* turnEvents(
  turn: ScriptedTurn,
  request: ModelRequest,
  options: TurnStreamOptions,
): AsyncGenerator<ModelEvent> {
  const { clock } = request;
  // Checked through the abort state: `request.signal` is made only when a delay waits on it.
  const state = abortStateOf(request);
  const throwIfAborted = () => {
    if (state.aborted) throw state.reason;
  };
  const startedAt = clock.now();
  throwIfAborted();
  if (turn.fail !== undefined && !turn.text) throw new ModelError(turn.fail);

  let chunks = textChunks(turn.text ?? '');
  let toolUses = turn.toolUses ?? [];
  let stopReason: StopReason = toolUses.length > 0 ? 'tool_use' : 'end_turn';
  const maxTokens = request.parameters.maxTokens;
  if (maxTokens !== undefined && chunks.length > maxTokens) {
    chunks = chunks.slice(0, Math.max(0, maxTokens));
    const last = chunks.at(-1);
    if (last !== undefined) chunks[chunks.length - 1] = last.trimEnd();
    toolUses = [];
    stopReason = 'max_tokens';
  }
  if (turn.stopReason !== undefined) stopReason = turn.stopReason;

  let deltas = 0;
  // Every delta but the message's first waits `delayMs`; the sleep rejects when the signal aborts.
  const pace = async (): Promise<void> => {
    if (deltas++ > 0 && turn.delayMs !== undefined && turn.delayMs > 0) {
      await clock.sleep(turn.delayMs, request.signal);
    }
    throwIfAborted();
  };

  let outputTokens = 0;
  let blockIndex = 0;
  yield { messageStart: { role: 'assistant' } };

  if (chunks.length > 0) {
    for (const text of chunks) {
      await pace();
      yield { contentBlockDelta: { contentBlockIndex: blockIndex, delta: { text } } };
      outputTokens += countWords(text);
    }
    if (turn.fail !== undefined) throw new ModelError(turn.fail);
    throwIfAborted();
    yield { contentBlockStop: { contentBlockIndex: blockIndex } };
    blockIndex++;
  }
  // Reached when maxTokens left no text to stream before the failure.
  if (turn.fail !== undefined) throw new ModelError(turn.fail);

  for (const toolUse of toolUses) {
    const json = JSON.stringify(toolUse.input);
    throwIfAborted();
    yield {
      contentBlockStart: {
        contentBlockIndex: blockIndex,
        start: { toolUse: { toolUseId: toolUse.id ?? newToolUseId(), name: toolUse.name } },
      },
    };
    for (const input of jsonFragments(json, options.toolInputFragmentLength)) {
      await pace();
      yield { contentBlockDelta: { contentBlockIndex: blockIndex, delta: { toolUse: { input } } } };
    }
    throwIfAborted();
    yield { contentBlockStop: { contentBlockIndex: blockIndex } };
    outputTokens += countWords(toolUse.name) + countWords(json);
    blockIndex++;
  }

  throwIfAborted();
  yield { messageStop: { stopReason } };
  const inputTokens = countInputTokens(request.messages);
  throwIfAborted();
  yield {
    metadata: {
      usage: { inputTokens, outputTokens, totalTokens: inputTokens + outputTokens },
      metrics: { latencyMs: clock.now() - startedAt },
    },
  };
}
