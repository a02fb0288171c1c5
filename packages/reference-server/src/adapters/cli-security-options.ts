import { InvalidArgumentError } from 'commander';
import { type AllowedHosts, hostMatcher } from '../http/allowed-hosts.js';
import type { CorsOrigins } from '../http/cors-policy.js';
import { controlTokenProblem } from '../testing/control-access.js';

// Readers of the CLI's security flags: --control-token, --allowed-hosts, --cors.

/**
 * `--control-token`: visible ASCII, no spaces (it travels in a header and a URL fragment), at
 * least 16 characters.
 */
export function parseControlToken(value: string): string {
  const problem = controlTokenProblem(value);
  if (problem !== undefined) throw new InvalidArgumentError(`${problem}.`);
  return value;
}

/** `a,b` or `*`: hosts besides loopback names and IP addresses. */
export function parseAllowedHosts(value: string): AllowedHosts {
  const hosts = value
    .split(',')
    .map((host) => host.trim())
    .filter((host) => host !== '');
  try {
    hostMatcher(hosts);
  } catch (error) {
    throw new InvalidArgumentError(`${(error as Error).message}.`);
  }
  return hosts.includes('*') ? true : hosts;
}

/** `*` or origins such as `http://localhost:5173,https://app.test`. */
export function parseCors(value: string): CorsOrigins {
  const origins = value
    .split(',')
    .map((origin) => origin.trim().replace(/\/+$/, ''))
    .filter(Boolean);
  if (origins.includes('*')) return true;
  for (const origin of origins) {
    if (!URL.canParse(origin) || new URL(origin).origin !== origin) {
      throw new InvalidArgumentError(`"${origin}" is not an origin (scheme://host[:port]) or *.`);
    }
  }
  if (origins.length === 0) throw new InvalidArgumentError('must name at least one origin or *.');
  return origins;
}
