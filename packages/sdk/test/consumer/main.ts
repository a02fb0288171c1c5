// Runs a tool loop against the reference server with the tool from each schema library.
import { startServer } from '@parley/reference-server';
import { Parley, toolsToExtensions } from '@parley/sdk';
import { arktypeTool, jsonSchemaTool, valibotTool, zodTool } from './tools.js';

const tools = { zod: zodTool, valibot: valibotTool, arktype: arktypeTool, jsonSchema: jsonSchemaTool };
const running = await startServer({ port: 0 });
const failures: string[] = [];
const check = (ok: boolean, what: string) => {
  if (!ok) failures.push(what);
};
try {
  for (const [library, tool] of Object.entries(tools)) {
    const client = new Parley({ baseUrl: running.url, token: 'parley-demo-token' });
    const extensions = { tools: toolsToExtensions([tool]) };
    const properties = tool.definition.requestArgs.properties as Record<string, { description?: string }>;
    check(properties.city?.description === 'City name', `${library}: the description reaches requestArgs`);

    const { sessionId } = await client.sessions.create({
      customizations: { agentId: 'assistant', extensions },
    });
    const good = await client.runToolLoop({
      sessionId,
      content: '/tool get_weather {"city":"Paris"}\n/then 18 degrees in Paris.',
      tools: [tool],
    });
    const result = good.steps[0]?.toolResults[0];
    check(
      result?.status === 'COMPLETE' && result.output?.temperatureC === 18,
      `${library}: valid input runs`,
    );
    check(good.finalText === '18 degrees in Paris.', `${library}: the loop ends with the model's answer`);

    const second = await client.sessions.create({ customizations: { agentId: 'assistant', extensions } });
    const bad = await client.runToolLoop({
      sessionId: second.sessionId,
      content: '/tool get_weather {"city":42}\n/then Sorry.',
      tools: [tool],
    });
    const error = bad.steps[0]?.toolResults[0];
    check(
      error?.status === 'ERROR' &&
        /^Invalid input for tool "get_weather":\n✖ .+\n {2}→ at city/.test(error.error ?? ''),
      `${library}: invalid input goes back to the model with the library's issue text (${error?.error})`,
    );
    console.log(`${library}: ${result?.status}, invalid input -> ${JSON.stringify(error?.error)}`);
  }
} finally {
  await running.close();
}
if (failures.length > 0) {
  console.error(`consumer test failed:\n- ${failures.join('\n- ')}`);
  process.exit(1);
}
console.log('consumer test: zod, Valibot, ArkType and jsonSchema tools ran against the reference server');
