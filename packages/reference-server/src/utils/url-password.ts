// The upstream URL's password: shown masked wherever the proxy names the upstream (start line,
// errors, report, stop line), and searched for where an upstream may reflect it.

/** The `user:password@` part of a URL: where it starts and ends, and the password's range. */
function userinfoOf(url: string): { passwordStart: number; passwordEnd: number } | undefined {
  const scheme = url.indexOf('://');
  if (scheme === -1) return undefined;
  const start = scheme + 3;
  let end = url.length;
  for (const stop of ['/', '?', '#']) {
    const at = url.indexOf(stop, start);
    if (at !== -1 && at < end) end = at;
  }
  // The last `@` of the authority ends the userinfo, as the URL parser reads it.
  const at = url.lastIndexOf('@', end - 1);
  if (at < start) return undefined;
  const colon = url.indexOf(':', start);
  if (colon === -1 || colon > at) return undefined;
  return { passwordStart: colon + 1, passwordEnd: at };
}

/** The URL with its password shown as `***` (`http://user:***@host`); a URL without one as it is. */
export function maskUrlPassword(url: string): string {
  const info = userinfoOf(url);
  if (info === undefined || info.passwordStart === info.passwordEnd) return url;
  return `${url.slice(0, info.passwordStart)}***${url.slice(info.passwordEnd)}`;
}

const URL_IN_TEXT = /[a-z][a-z0-9+.-]*:\/\/[^\s/?#"']+/gi;

/** A text (an error's message) with the password of every URL in it masked. */
export function maskUrlPasswords(text: string): string {
  return text.includes('://') ? text.replace(URL_IN_TEXT, maskUrlPassword) : text;
}

/**
 * The forms the URL's password may take where an upstream reflects it: as written, decoded, and
 * inside the Basic credentials node:http sends.
 */
export function urlSecrets(url: string): string[] {
  const info = userinfoOf(url);
  if (info === undefined || info.passwordStart === info.passwordEnd) return [];
  const raw = url.slice(info.passwordStart, info.passwordEnd);
  const user = url.slice(url.indexOf('://') + 3, info.passwordStart - 1);
  const decoded = safeDecode(raw);
  const basic = btoa(String.fromCharCode(...new TextEncoder().encode(`${safeDecode(user)}:${decoded}`)));
  return [raw, decoded, basic];
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}
