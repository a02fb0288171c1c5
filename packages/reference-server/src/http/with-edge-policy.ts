import { HttpError } from '../http-error.js';
import { type AllowedHosts, hostMatcher, hostnameOf } from './allowed-hosts.js';
import { type CorsOrigins, corsPolicy } from './cors-policy.js';
import { setResponseHeader } from './text-response.js';

/** Options of {@link withEdgePolicy}. */
export interface EdgePolicyOptions {
  cors: CorsOrigins;
  /** The host check; `true` turns it off. */
  allowedHosts: AllowedHosts;
}

/**
 * The server's outermost layer, in front of every route (protocol, faults, control): refuses a
 * request whose `Host` is not allowed (`403 host_not_allowed`, against DNS rebinding), answers CORS
 * preflights, and gives every response its CORS headers and `x-content-type-options: nosniff`.
 * A handler's rejection (an injected dropped connection) passes through untouched.
 */
export function withEdgePolicy(
  handler: (request: Request) => Promise<Response>,
  options: EdgePolicyOptions,
): (request: Request) => Promise<Response> {
  const cors = corsPolicy(options.cors);
  const hostAllowed = options.allowedHosts === true ? undefined : hostMatcher(options.allowedHosts);
  const decorate = (request: Request, response: Response): Response => {
    // A copy when the headers are immutable (a Response from fetch, say).
    const out = setResponseHeader(response, 'x-content-type-options', 'nosniff');
    cors?.decorate(request, (name, value, append) => setResponseHeader(out, name, value, append));
    return out;
  };
  return async (request) => {
    const host = hostAllowed === undefined ? undefined : refusedHost(request, hostAllowed);
    if (host !== undefined) {
      const refused = new HttpError(
        'host_not_allowed',
        `The host ${JSON.stringify(host)} is not allowed: use localhost or an IP address, or allow it (allowedHosts, --allowed-hosts)`,
      );
      return decorate(request, refused.toResponse());
    }
    const preflight = cors?.preflight(request);
    if (preflight !== undefined) {
      preflight.headers.set('x-content-type-options', 'nosniff');
      return preflight;
    }
    return decorate(request, await handler(request));
  };
}

/**
 * The URL's hostname and the `Host` header (when there is one) must both be allowed: undefined when
 * they are, else the one refused (as sent), for the error to name.
 */
function refusedHost(request: Request, allowed: (hostname: string) => boolean): string | undefined {
  const urlHost = urlHostname(request.url);
  if (urlHost === undefined || !allowed(urlHost)) return urlHost ?? request.url;
  const header = request.headers.get('host');
  if (header === null) return undefined;
  const hostname = hostnameOf(header);
  return hostname !== undefined && allowed(hostname) ? undefined : header;
}

/**
 * The hostname of an absolute URL, read off its authority without parsing the whole URL (this runs
 * for every request); an authority it does not recognise goes through `URL`.
 */
function urlHostname(url: string): string | undefined {
  const start = url.indexOf('://') + 3;
  let end = start;
  while (end < url.length) {
    const c = url.charCodeAt(end);
    if (c === 0x2f || c === 0x3f || c === 0x23 || c === 0x40 || c === 0x5c) break; // / ? # @ \
    end++;
  }
  const code = url.charCodeAt(end);
  if (start >= 3 && code !== 0x40 && code !== 0x5c) {
    const hostname = hostnameOf(url.slice(start, end));
    if (hostname !== undefined) return hostname;
  }
  try {
    return new URL(url).hostname;
  } catch {
    return undefined;
  }
}
