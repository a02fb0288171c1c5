/**
 * Which `Host` names the server answers to: `true` for any, or a list of names on top of the ones
 * always allowed (loopback names and IP addresses). An entry `.example.com` allows that domain and
 * every subdomain; `*` in a list allows any host.
 */
export type AllowedHosts = true | readonly string[];

const IPV4 = /^\d{1,3}(?:\.\d{1,3}){3}$/;
const IPV6 = /^\[[0-9a-f:.]+\]$/;
const HOST_NAME = /^\.?[a-z0-9_-]+(?:\.[a-z0-9_-]+)*\.?$/;

/**
 * Builds the host check: a hostname (`url.hostname`: lower case, IPv6 in brackets, no port) is
 * allowed when it is `localhost` or under `.localhost`, an IP address, or listed. IP addresses pass
 * because DNS rebinding needs a name: a page can only make the browser send a foreign `Host` that
 * is a name its own DNS answers for.
 *
 * @throws TypeError for an entry that is not a host name (`.example.com` form included) or `*`.
 */
export function hostMatcher(allowed: AllowedHosts): (hostname: string) => boolean {
  if (allowed === true || allowed.includes('*')) return () => true;
  const exact = new Set<string>();
  const suffixes: string[] = [];
  for (const entry of allowed) {
    const name = entry.trim().toLowerCase().replace(/\.$/, '');
    if (!HOST_NAME.test(name)) {
      throw new TypeError(`Allowed host ${JSON.stringify(entry)} must be a host name, .domain or *`);
    }
    if (name.startsWith('.')) {
      suffixes.push(name);
      exact.add(name.slice(1));
    } else exact.add(name);
  }
  return (hostname) => {
    const name = hostname.toLowerCase().replace(/\.$/, '');
    return (
      name === 'localhost' ||
      name.endsWith('.localhost') ||
      IPV4.test(name) ||
      IPV6.test(name) ||
      exact.has(name) ||
      suffixes.some((suffix) => name.endsWith(suffix))
    );
  };
}

const HOST_HEADER = /^(\[[0-9a-fA-F:.]+\]|[A-Za-z0-9._-]+)(?::\d{1,5})?$/;

/** The hostname of a `Host` header value (`name[:port]`, `[v6][:port]`), or undefined if malformed. */
export function hostnameOf(hostHeader: string): string | undefined {
  return HOST_HEADER.exec(hostHeader.trim())?.[1]?.toLowerCase();
}
