import { type Model, scriptedModel, standInModel, turn } from '@parley/reference-server';

/** A user message with exactly this text fails mid-stream the first time per session, then answers. */
export const FAIL_ONCE_PROMPT = 'contract: fail once, then answer';
/** What the contract model answers to {@link FAIL_ONCE_PROMPT} on the retry. */
export const RECOVERED_TEXT = 'Recovered on retry.';

/**
 * The model of the suite's reference servers: the stand-in model (directives), except for
 * {@link FAIL_ONCE_PROMPT}, which lets a test see a resume retry a failed answer.
 */
export function contractModel(): Model {
  const failed = new Set<string>();
  return scriptedModel((request) => {
    const lastUser = [...request.messages].reverse().find((m) => m.role === 'user');
    const text = lastUser?.content.map((block) => (block.type === 'text' ? block.text : '')).join('') ?? '';
    if (text !== FAIL_ONCE_PROMPT) return standInModel(request);
    if (failed.has(request.sessionId)) return turn.text(RECOVERED_TEXT);
    failed.add(request.sessionId);
    return turn.fail('Upstream overloaded', { text: 'Partial answer' });
  });
}
