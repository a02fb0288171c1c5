import { HttpError } from '../http-error.js';

/** A user of the reference server and the bearer token that authenticates it. */
export interface User {
  name: string;
  token: string;
}

const encoder = new TextEncoder();

async function digest(text: string): Promise<Uint8Array> {
  return new Uint8Array(await crypto.subtle.digest('SHA-256', encoder.encode(text)));
}

/** Same length digests compared without an early exit. */
function digestsEqual(a: Uint8Array, b: Uint8Array): boolean {
  let diff = a.length ^ b.length;
  for (let i = 0; i < a.length; i++) diff |= (a[i] ?? 0) ^ (b[i] ?? 0);
  return diff === 0;
}

/**
 * Bearer-token authentication in constant time: the presented token and every configured token are
 * hashed with SHA-256 and all digests are compared, so the time taken says nothing about which
 * bytes matched.
 */
export class TokenAuth {
  #digests: Promise<Array<{ name: string; digest: Uint8Array }>> | undefined;

  constructor(private readonly users: readonly User[]) {}

  /** The name of the user the `Authorization` header authenticates, or `401 unauthorized`. */
  async authenticate(header: string | null): Promise<string> {
    const match = /^Bearer +(\S+) *$/i.exec(header ?? '');
    const token = match?.[1];
    if (token === undefined) {
      throw unauthorized(
        header === null
          ? 'The Authorization header is missing'
          : 'The Authorization header must be "Bearer <token>"',
      );
    }
    this.#digests ??= Promise.all(
      this.users.map(async (u) => ({ name: u.name, digest: await digest(u.token) })),
    );
    const presented = await digest(token);
    let user: string | undefined;
    for (const candidate of await this.#digests) {
      if (digestsEqual(presented, candidate.digest) && user === undefined) user = candidate.name;
    }
    if (user === undefined) throw unauthorized('The bearer token is not valid');
    return user;
  }
}

function unauthorized(message: string): HttpError {
  return new HttpError('unauthorized', message, { headers: { 'www-authenticate': 'Bearer' } });
}
