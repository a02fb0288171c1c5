// Where an upstream may reflect the password of its URL: the forms the proxy redacts.

/**
 * The forms the URL's password may take where an upstream reflects it: as written, decoded, and
 * inside the Basic credentials node:http sends.
 */
export function urlSecrets(base: string): string[] {
  const url = URL.canParse(base) ? new URL(base) : undefined;
  if (url === undefined || url.password === '') return [];
  const raw = url.password;
  const user = url.username;
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
