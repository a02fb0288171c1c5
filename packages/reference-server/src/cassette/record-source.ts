import type { ProxyExchange, ProxyObserver } from '../proxy/proxy-exchange.js';
import { TEST_ID_HEADER } from '../utils/test-id.js';
import type { CassetteRecorderOptions } from './cassette-recorder.js';

/**
 * The recorder of the `record` option: it keeps the exchanges it is told of (and, with
 * `testName`, the test each arrived in) and, when the server closes, builds the cassette and writes
 * it. The builder is loaded then, not with the server.
 */
export function recordingObserver(options: CassetteRecorderOptions & { file: string }): ProxyObserver & {
  close(): Promise<void>;
} {
  const exchanges: ProxyExchange[] = [];
  const tests = new Map<number, string>();
  return {
    onExchange(exchange) {
      exchanges.push(exchange);
      // A request of a test scope belongs to that test (its x-parley-test-id is the key).
      const test =
        options.testName === undefined
          ? undefined
          : (exchange.requestHeaders[TEST_ID_HEADER] ?? options.testName());
      if (test !== undefined) tests.set(exchange.seq, test);
    },
    async close() {
      const { createCassetteRecorder } = await import('./cassette-recorder.js');
      let feeding: number | undefined;
      const recorder = createCassetteRecorder({
        ...options,
        testName: () => (feeding === undefined ? undefined : tests.get(feeding)),
      });
      for (const exchange of exchanges) {
        feeding = exchange.seq;
        recorder.onExchange(exchange);
      }
      await recorder.save();
    },
  };
}
