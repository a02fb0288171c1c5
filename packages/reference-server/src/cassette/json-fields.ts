/** Loose readers of JSON values that a proxy saw, which may break the protocol. */

export function field(value: unknown, key: string): unknown {
  return isRecord(value) ? value[key] : undefined;
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function asArray(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}

export type UsageValue = { inputTokens: number; outputTokens: number; totalTokens: number };

export function isUsage(value: unknown): value is UsageValue {
  return (
    typeof field(value, 'inputTokens') === 'number' &&
    typeof field(value, 'outputTokens') === 'number' &&
    typeof field(value, 'totalTokens') === 'number'
  );
}
