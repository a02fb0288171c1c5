import { bearerMatcher, type User } from '../http/token-auth.js';
import type { ControlTokenCheck } from './control-access.js';

/**
 * Whether a request speaks for a user: it carries a user's bearer token, or any bearer token when
 * a checking proxy passes the client's through (it cannot tell a user's token then).
 */
export function userRequestMatcher(
  users: readonly User[],
  anyBearer: boolean,
): (request: Request) => boolean {
  const isUser = bearerMatcher(users);
  return (request) => {
    const authorization = request.headers.get('authorization');
    return isUser(authorization) || (anyBearer && authorization !== null);
  };
}

/**
 * Who may get a fault: a user's request ({@link userRequestMatcher}), or one with the control
 * token. A fault with a wrong control token is ignored, and counts as a guess like any other
 * (answered as slowly).
 */
export function faultPermission(
  isUserRequest: (request: Request) => boolean,
  verifyControlToken: (request: Request) => Promise<ControlTokenCheck> | undefined,
): (request: Request) => boolean | Promise<boolean> {
  return (request) =>
    isUserRequest(request) ||
    Promise.resolve(verifyControlToken(request)).then((check) => check?.kind === 'valid');
}
