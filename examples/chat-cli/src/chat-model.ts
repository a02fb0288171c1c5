import { type Model, scriptedModel, turn } from '@parley/reference-server';

/**
 * The model of the embedded server. The reference server has no real model, so two scripted rules
 * recognise requests for the chat's tools; everything else goes to the stand-in model
 * (`strict: false`), which echoes plain text, follows directives such as `/say Hi`, and sums up
 * tool results. A line that starts with `/` is always left to the stand-in model.
 */
export const chatModel: Model = scriptedModel({
  strict: false,
  rules: [
    {
      name: 'a question about the time',
      match: { lastUserText: { regex: '^(?!/).*\\btime\\b', flags: 'i' } },
      reply: turn.toolUse('get_time', { timeZone: 'UTC' }, { text: 'Let me look at the clock.' }),
    },
    {
      name: 'a dice roll',
      match: { lastUserText: { regex: '^(?!/).*\\b(dice|die|roll)\\b', flags: 'i' } },
      reply: turn.toolUse('roll_dice', { count: 2, sides: 6 }, { text: 'Rolling two dice.' }),
    },
  ],
});
