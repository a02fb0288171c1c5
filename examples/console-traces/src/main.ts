// A tool loop traced with OpenTelemetry, its spans printed to the console: each span as the
// OpenTelemetry SDK's ConsoleSpanExporter prints it when it ends, then the whole trace as a tree.
import {
  BasicTracerProvider,
  ConsoleSpanExporter,
  InMemorySpanExporter,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import { spanTree } from './span-tree.js';
import { runTracedToolLoop } from './traced-tool-loop.js';

const memory = new InMemorySpanExporter();
const provider = new BasicTracerProvider({
  spanProcessors: [new SimpleSpanProcessor(new ConsoleSpanExporter()), new SimpleSpanProcessor(memory)],
});
try {
  const result = await runTracedToolLoop(provider.getTracer('console-traces'));
  console.log(`\n${result.status}: ${result.finalText}\n\nThe same spans as a tree:\n`);
  console.log(spanTree(memory.getFinishedSpans()));
} catch (error) {
  console.error(error);
  process.exitCode = 1;
} finally {
  await provider.shutdown();
}
