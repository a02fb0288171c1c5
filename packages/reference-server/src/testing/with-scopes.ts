import { HttpError } from '../http-error.js';
import { isControlPath } from './control-prefix.js';
import type { Scope } from './scope.js';
import type { ScopeRegistry } from './scope-registry.js';

/** What {@link withScopes} sends a request on to, with its scope. */
export interface ScopedParts {
  /** Whether the request speaks for a user: only such a request (or a control one) makes a scope. */
  isUserRequest(request: Request): boolean;
  /** `/_parley/` (when the server has control routes): they register the scope after their token check. */
  control: ((request: Request, scope: Scope) => Promise<Response>) | undefined;
  /** Everything else: the toolkit around the core or the checking proxy. */
  protocol(request: Request, scope: Scope): Promise<Response>;
}

/**
 * The toolkit's front door: the request's test scope is resolved here, once (`400
 * invalid_test_id`, `410` for a removed one, `503` when the registry is full), and every layer
 * below reads it from here on.
 */
export function withScopes(
  scopes: ScopeRegistry,
  parts: ScopedParts,
): (request: Request, pathname: string) => Promise<Response> {
  return async (request, pathname) => {
    const control = parts.control !== undefined && isControlPath(pathname) ? parts.control : undefined;
    // The control routes admit the scope themselves, after their token check.
    const scope = scopes.of(request, control === undefined ? parts.isUserRequest : never);
    if (scope instanceof HttpError) return scope.toResponse();
    return (control ?? parts.protocol)(request, scope);
  };
}

const never = () => false;
