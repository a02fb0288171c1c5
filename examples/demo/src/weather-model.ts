import { type Model, scriptedModel, turn } from '@parley/reference-server';

/** Server-clock milliseconds between two streamed words, so the text visibly arrives word by word. */
const WORD_DELAY_MS = 25;

/**
 * The model behind the demo: the reference server has no real model, so two scripted rules play
 * one. A question about the weather calls `get_weather`; once the tool result is in, the answer
 * (the first rule wins, so the tool-result rule comes first).
 */
export const weatherModel: Model = scriptedModel({
  rules: [
    {
      name: 'answer once the tool result is in',
      match: { hasToolResult: true, hasToolError: false },
      reply: turn.text('It is 18 °C and sunny in Paris: a fine evening for a walk along the Seine.', {
        delayMs: WORD_DELAY_MS,
      }),
    },
    {
      name: 'the tool failed',
      match: { hasToolError: true },
      reply: turn.text('Sorry, the weather service did not answer.', { delayMs: WORD_DELAY_MS }),
    },
    {
      name: 'a weather question',
      match: { lastUserText: /weather/i },
      reply: turn.toolUse(
        'get_weather',
        { city: 'Paris' },
        { text: 'Let me check the weather in Paris for you.', delayMs: WORD_DELAY_MS },
      ),
    },
  ],
});
