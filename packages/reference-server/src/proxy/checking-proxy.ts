import type { RequestHooks } from '../http/request-hooks.js';
import { maskUrlPasswords } from '../utils/url-password.js';
import type { ProxyContext } from './proxied-request.js';
import { ProxyReport, type ProxyReportSnapshot } from './proxy-report.js';
import type { UpstreamForwarder } from './upstream-forwarder.js';
import type { CheckingProxyDeps } from './upstream-options.js';
import { upstreamProbe } from './upstream-probe.js';

/** The reference server as a checking proxy: `server.proxy`. */
export interface CheckingProxy {
  /** The upstream's base URL, its password (if any) masked as `***`. */
  readonly upstream: string;
  /** Forwards one `/v1` request (the server's core in proxy mode; the testing toolkit wraps it). */
  readonly fetch: (request: Request, hooks: RequestHooks) => Promise<Response>;
  /** Requests, upstream failures and violations so far (`GET /_parley/proxy/report`). */
  report(): ProxyReportSnapshot;
  /** `GET /readyz`: undefined once the upstream answered, else why not (the upstream asked again). */
  ready(): Promise<string | undefined>;
  /** Prints the report's summary line, closes the observers and the connections to the upstream. */
  close(): Promise<void>;
}

/**
 * Creates the checking proxy in front of `deps.upstream.url`. Its request path (forwarding and the
 * protocol checks) is loaded on the first request: a browser bundle of the server that never
 * proxies does not carry it.
 */
export function createCheckingProxy(deps: CheckingProxyDeps): CheckingProxy {
  const { upstream, clock } = deps;
  const shown = maskUrlPasswords(upstream.url.replace(/\/+$/, ''));
  const log = upstream.log ?? ((line: string) => console.warn(line));
  const report = new ProxyReport(shown);
  const context: ProxyContext = { clock, report, observers: [...(upstream.observers ?? [])], log };
  let forwarder: UpstreamForwarder | Promise<UpstreamForwarder> | undefined;
  const load = (): UpstreamForwarder | Promise<UpstreamForwarder> =>
    (forwarder ??= import('./upstream-forwarder.js').then((module) => {
      const loaded = module.createUpstreamForwarder(deps, context);
      forwarder = loaded;
      return loaded;
    }));

  return {
    upstream: shown,
    fetch: async (request, hooks) => {
      const loaded = load();
      return ('fetch' in loaded ? loaded : await loaded).fetch(request, hooks);
    },
    report: () => report.snapshot(),
    ready: upstreamProbe(upstream, shown),
    close: async () => {
      log(report.summary());
      // Idle keep-alive connections would hold a test process open until the upstream drops them.
      (await forwarder)?.close();
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
