import { PROTO_KEY } from './lost-proto-key.js';

/** Sets `key` on `target` as an own property, `__proto__` included (assigning that one sets the prototype). */
export function setOwn(target: Record<string, unknown>, key: string, value: unknown): void {
  if (key === PROTO_KEY) Object.defineProperty(target, key, { value, enumerable: true, writable: true });
  else target[key] = value;
}
