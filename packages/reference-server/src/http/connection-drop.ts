// How the node:http adapter lets the core drop a real connection: it registers, per request, a
// function that destroys the socket. Under msw or fetch injection nothing is registered and the
// core errors the body (or rejects) instead.
const drops = new WeakMap<Request, () => void>();

/** Registers how to destroy the connection that carries `request`. */
export function registerConnectionDrop(request: Request, drop: () => void): void {
  drops.set(request, drop);
}

/** The function that destroys the connection of `request`, when its adapter registered one. */
export function connectionDropOf(request: Request): (() => void) | undefined {
  return drops.get(request);
}
