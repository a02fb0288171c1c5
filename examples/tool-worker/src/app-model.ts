import { type Model, scriptedModel, standInModel, turn } from '@parley/reference-server';

/**
 * The model of the app's server: "weather in <city>" calls `get_weather` for that city; everything
 * else, the answer after the tool result included, is the stand-in model's
 * ("Tool get_weather returned {...}.").
 */
export const appModel: Model = scriptedModel((request) => {
  const last = request.messages.at(-1);
  const text = last?.content.map((block) => (block.type === 'text' ? block.text : '')).join('') ?? '';
  const city = /weather in ([A-Za-z]+)/i.exec(text)?.[1];
  if (last?.role === 'user' && city !== undefined) return turn.toolUse('get_weather', { city });
  return standInModel(request);
});
