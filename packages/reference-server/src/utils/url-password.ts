// The upstream URL's password: shown masked wherever the proxy names the upstream (start line,
// errors, report, stop line). Small: the server's first chunk in a browser carries it.

/**
 * A URL's `user:password@`, up to the last `@` of its authority (as the URL parser reads it): the
 * scheme and user in group 1, the password after them.
 */
const PASSWORD_IN_URL =
  /\b([a-z][a-z\d+.-]*:\/\/[^/?#:@\s"']*:)[^/?#\s"']+@(?=[^/?#@\s"']*(?:[/?#\s"']|$))/gi;

/**
 * The text (a URL, or an error's message quoting URLs) with the password of each URL shown as
 * `***`: `http://user:***@host`. Text without one comes back as it is.
 */
export function maskUrlPasswords(text: string): string {
  return text.includes('@') ? text.replace(PASSWORD_IN_URL, '$1***@') : text;
}
