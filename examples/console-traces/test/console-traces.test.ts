import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import { describe, expect, it } from 'vitest';
import { spanTree } from '../src/span-tree.js';
import { runTracedToolLoop } from '../src/traced-tool-loop.js';

describe('console-traces', () => {
  it('traces the tool loop: run, steps, streams, tool runs and their requests, the faults as events', async () => {
    const exporter = new InMemorySpanExporter();
    const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
    const result = await runTracedToolLoop(provider.getTracer('test'));
    expect(result.finalText).toBe('18 degrees in Paris, 21 in Rome.');

    const tree = spanTree(exporter.getFinishedSpans(), { times: false }).split('\n');
    // Tool runs run in parallel: which one met the faults is not fixed, so compare them sorted.
    const tools = tree.filter(
      (line) => line.startsWith('    execute_tool') || line.startsWith('      POST /v1/tools'),
    );
    const rest = tree.filter((line) => !tools.includes(line));
    const stream = (stop: string) =>
      new RegExp(
        `^ {4}parley\\.messages\\.stream {2}parley\\.stream\\.events=\\d+ parley\\.stop_reason=${stop} {2}events: parley\\.stream\\.first_event$`,
      );
    const streamRequest =
      /^ {6}POST \/v1\/messages\/\{sessionId\}\/stream {2}http\.response\.status_code=200 parley\.request_id=req_\w+$/;
    expect(rest).toEqual([
      expect.stringMatching(
        /^POST \/v1\/sessions {2}http\.response\.status_code=201 parley\.request_id=req_\w+$/,
      ),
      'parley.tool_loop  parley.stop_reason=end_turn parley.tool_loop.status=done',
      '  parley.tool_loop.step  parley.stop_reason=tool_use',
      expect.stringMatching(stream('tool_use')),
      expect.stringMatching(streamRequest),
      '  parley.tool_loop.step  parley.stop_reason=end_turn',
      expect.stringMatching(stream('end_turn')),
      expect.stringMatching(streamRequest),
    ]);
    const toolRuns = tools.filter((line) => line.includes('execute_tool')).sort();
    expect(toolRuns).toEqual([
      '    execute_tool get_weather  parley.tool.status=COMPLETE  events: parley.heartbeat',
      '    execute_tool get_weather  parley.tool.status=COMPLETE  events: parley.heartbeat.error',
    ]);
    const requests = tools
      .filter((line) => line.includes('POST'))
      .map((line) => line.replace(/req_\w+/, 'req_…'));
    expect(requests.sort()).toEqual([
      '      POST /v1/tools/request/{sessionId}/{requestId}/heartbeat  http.response.status_code=200 parley.request_id=req_…',
      '      POST /v1/tools/request/{sessionId}/{requestId}/heartbeat  http.response.status_code=503 parley.request_id=req_… error.type=503',
      '      POST /v1/tools/response/{sessionId}/{requestId}  http.response.status_code=200 http.request.resend_count=1 parley.request_id=req_…  events: parley.retry',
      '      POST /v1/tools/response/{sessionId}/{requestId}  http.response.status_code=200 parley.request_id=req_…',
    ]);
    await provider.shutdown();
  });
});
