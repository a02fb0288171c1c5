import type { RequestHooks } from '../http/request-hooks.js';
import type { ProxyContext } from './proxied-request.js';
import { ProxyReport, type ProxyReportSnapshot } from './proxy-report.js';
import type { CheckingProxyDeps } from './upstream-options.js';

/** The reference server as a checking proxy: `server.proxy`. */
export interface CheckingProxy {
  /** The upstream's base URL. */
  readonly upstream: string;
  /** Forwards one `/v1` request (the server's core in proxy mode; the testing toolkit wraps it). */
  readonly fetch: (request: Request, hooks: RequestHooks) => Promise<Response>;
  /** Requests, upstream failures and violations so far (`GET /_parley/proxy/report`). */
  report(): ProxyReportSnapshot;
  /** Prints the report's summary line and closes the observers. */
  close(): Promise<void>;
}

type Forward = (request: Request, hooks: RequestHooks) => Promise<Response>;

/**
 * Creates the checking proxy in front of `deps.upstream.url`. Its request path (forwarding and the
 * protocol checks) is loaded on the first request: a browser bundle of the server that never
 * proxies does not carry it.
 */
export function createCheckingProxy(deps: CheckingProxyDeps): CheckingProxy {
  const { upstream, clock } = deps;
  const base = upstream.url.replace(/\/+$/, '');
  const log = upstream.log ?? ((line: string) => console.warn(line));
  const report = new ProxyReport(base);
  const context: ProxyContext = { clock, report, observers: [...(upstream.observers ?? [])], log };
  let forward: Forward | Promise<Forward> | undefined;
  const load = (): Forward | Promise<Forward> =>
    (forward ??= import('./upstream-forwarder.js').then((module) => {
      const loaded = module.createUpstreamForwarder(deps, context);
      forward = loaded;
      return loaded;
    }));

  return {
    upstream: base,
    fetch: async (request, hooks) => {
      const loaded = load();
      return (typeof loaded === 'function' ? loaded : await loaded)(request, hooks);
    },
    report: () => report.snapshot(),
    close: async () => {
      log(report.summary());
      for (const observer of context.observers) {
        try {
          await observer.close?.();
        } catch (error) {
          log(`[parley] proxy: an observer failed to close: ${(error as Error).message}`);
        }
      }
    },
  };
}
