import { type ScriptRules, startServer, turn } from '@parley/reference-server';

/** The token of the deployment: used only while recording, and never written to the cassette. */
export const DEPLOYMENT_TOKEN = 'deployment-secret-token';

/**
 * Stands in for the real deployment while recording: a second reference server whose model is
 * scripted to answer as a real model would (its own wording, a tool call with arguments, an
 * apology after a tool error). Point `scripts/record.ts` at your deployment instead.
 */
export const DEPLOYMENT_SCRIPT: ScriptRules = {
  rules: [
    {
      match: { hasToolError: true },
      reply: turn.text('Sorry, I could not get the weather for that city. Is the name right?'),
    },
    {
      match: { hasToolResult: true },
      reply: turn.text('Right now it is 18 °C and sunny in Paris. A good day for a walk!'),
    },
    {
      match: { lastUserText: 'Paris' },
      reply: turn.toolUses([{ name: 'get_weather', input: { city: 'Paris' }, id: 'tooluse_paris' }], {
        text: 'Let me look that up.',
      }),
    },
    {
      match: { lastUserText: 'Atlantis' },
      reply: turn.toolUses([{ name: 'get_weather', input: { city: 'Atlantis' }, id: 'tooluse_atlantis' }]),
    },
  ],
};

/** Starts the stand-in deployment on a free port. */
export async function startDeployment() {
  const running = await startServer({ port: 0, users: [{ name: 'app', token: DEPLOYMENT_TOKEN }] });
  running.server.script(DEPLOYMENT_SCRIPT);
  return running;
}
