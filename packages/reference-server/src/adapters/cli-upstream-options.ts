import { InvalidArgumentError } from 'commander';

// Readers of the checking proxy's flags: --upstream, --upstream-token.

/** `--upstream`: an http or https URL, no query or fragment (the proxy adds the request's path). */
export function parseUpstreamUrl(value: string): string {
  if (!URL.canParse(value)) throw new InvalidArgumentError(`"${value}" is not a URL (http://host:port).`);
  const url = new URL(value);
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new InvalidArgumentError(`"${value}" must be an http:// or https:// URL.`);
  }
  if (url.search !== '' || url.hash !== '') {
    throw new InvalidArgumentError(`"${value}" must have no query or fragment.`);
  }
  return value.replace(/\/+$/, '');
}

/** `--upstream-token`: a bearer token (RFC 6750: letters, digits and `-._~+/`, then optional `=`). */
export function parseUpstreamToken(value: string): string {
  if (!/^[A-Za-z0-9._~+/-]+=*$/.test(value)) {
    throw new InvalidArgumentError('must be a bearer token (letters, digits and -._~+/, then optional =).');
  }
  return value;
}
