import { ERROR_CODES, type ErrorCode } from '../errors.js';
import { type JsonSchema, schemaRef } from './component-schemas.js';

/** Error codes every `/v1` operation can answer with. */
export const COMMON_ERROR_CODES: readonly ErrorCode[] = ['unauthorized', 'internal_error', 'injected_fault'];

/** Error codes of every authenticated operation when the reference server runs as a checking proxy. */
export const PROXY_ERROR_CODES: readonly ErrorCode[] = ['upstream_unreachable', 'upstream_timeout'];

/** Error codes of an operation that reads a JSON body. */
export const BODY_ERROR_CODES: readonly ErrorCode[] = [
  'invalid_json',
  'invalid_request',
  'payload_too_large',
];

/** A reference to a header component. */
export const headerRef = (name: string): JsonSchema => ({ $ref: `#/components/headers/${name}` });

/** Headers some error statuses add. */
const STATUS_HEADERS: Record<number, Record<string, JsonSchema>> = {
  401: { 'WWW-Authenticate': headerRef('WWWAuthenticate') },
  429: { 'Retry-After': headerRef('RetryAfter') },
};

const PROXY_NOTE =
  ' The reference server answers it only as a checking proxy (`--upstream`), for an upstream that cannot be reached or answers too late.';

const INJECTED_NOTE =
  ' The reference server answers it only when a test injects a fault (`x-parley-fault` header or a queued fault); a fault can also carry another status.';

/**
 * The error responses of an operation, one per status, from the codes it can answer with: each
 * lists its codes and their meaning, and its schema pins `error.code` to them.
 */
export function errorResponses(codes: readonly ErrorCode[]): Record<string, JsonSchema> {
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of new Set(codes)) {
    const status = ERROR_CODES[code].status;
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  const responses: Record<string, JsonSchema> = {};
  for (const status of [...byStatus.keys()].sort((a, b) => a - b)) {
    const statusCodes = byStatus.get(status) ?? [];
    const lines = statusCodes.map((code) => `- \`${code}\`: ${ERROR_CODES[code].description}${noteOf(code)}`);
    responses[String(status)] = {
      description: lines.join('\n'),
      headers: { 'x-request-id': headerRef('RequestId'), ...STATUS_HEADERS[status] },
      content: {
        'application/json': {
          schema: {
            allOf: [
              schemaRef('ErrorBody'),
              {
                type: 'object',
                properties: { error: { type: 'object', properties: { code: { enum: statusCodes } } } },
              },
            ],
          },
        },
      },
    };
  }
  return responses;
}

function noteOf(code: ErrorCode): string {
  if (code === 'injected_fault') return INJECTED_NOTE;
  return PROXY_ERROR_CODES.includes(code) ? PROXY_NOTE : '';
}
