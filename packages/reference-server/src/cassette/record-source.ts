import type { ProxyExchange, ProxyObserver } from '../proxy/proxy-exchange.js';
import type { CassetteRecorderOptions } from './cassette-recorder.js';

/**
 * The recorder of the `record` option: it keeps the exchanges it is told of and, when the server
 * closes, builds the cassette and writes it. The builder is loaded then, not with the server.
 */
export function recordingObserver(options: CassetteRecorderOptions & { file: string }): ProxyObserver & {
  close(): Promise<void>;
} {
  const exchanges: ProxyExchange[] = [];
  return {
    onExchange(exchange) {
      exchanges.push(exchange);
    },
    async close() {
      const { createCassetteRecorder } = await import('./cassette-recorder.js');
      const recorder = createCassetteRecorder(options);
      for (const exchange of exchanges) recorder.onExchange(exchange);
      await recorder.save();
    },
  };
}
