import { ErrorBodySchema } from '@parley/protocol';
import type { ProtocolViolation } from '../http/protocol-violation.js';
import type { ProtocolOperation } from './protocol-operations.js';
import { describeText, violationsOf } from './violations-of.js';

const utf8 = new TextDecoder('utf-8', { fatal: true });
const lenient = new TextDecoder();

/** A body as the proxy read it: its text, its JSON value when it is JSON, and how it broke the protocol. */
export interface CheckedBody {
  /** The text; undefined when the bytes are not UTF-8 (they then pass on as they are). */
  text: string | undefined;
  /** The JSON value; undefined when the body is empty or not JSON. */
  value: unknown;
  violations: ProtocolViolation[];
}

/** Reads and checks a request body against its operation's schema. */
export function checkRequestBody(bytes: Uint8Array, operation: ProtocolOperation | undefined): CheckedBody {
  const body = readJson(bytes, 'request');
  const schema = operation?.request;
  if (schema === undefined || body.violations.length > 0) return body;
  if (body.text === undefined || body.text === '') {
    if (operation?.requestOptional !== true) {
      body.violations.push({ in: 'request', path: '', expected: 'a JSON body', got: 'nothing' });
    }
    return body;
  }
  // Whitespace alone is not "no body": the service answers it 400 invalid_json.
  if (body.text.trim() === '') {
    body.violations.push({ in: 'request', path: '', expected: 'JSON', got: describeText(body.text) });
    return body;
  }
  body.violations.push(...violationsOf(schema, body.value, 'request'));
  return body;
}

const JSON_TYPE = /^application\/json\s*(?:;|$)/i;

/**
 * A body the protocol writes as JSON (every answer but an empty one) without `content-type:
 * application/json` (parameters allowed): a client that checks the type fails on it.
 */
export function contentTypeViolation(headers: Record<string, string>): ProtocolViolation | undefined {
  const type = headers['content-type'];
  if (type !== undefined && JSON_TYPE.test(type)) return undefined;
  return {
    in: 'response',
    path: '',
    expected: 'content-type application/json',
    got: type === undefined ? 'no content-type' : `content-type ${describeText(type).slice(5)}`,
  };
}

/**
 * Reads and checks a buffered response body: an error status against the error body, the success
 * status against its operation's schema (and the status itself against the operation's: a
 * redirect is never one), and a body's content type.
 */
export function checkResponseBody(
  bytes: Uint8Array,
  status: number,
  operation: ProtocolOperation | undefined,
  headers: Record<string, string> = {},
): CheckedBody {
  const body = readJson(bytes, 'response');
  const empty = body.text === undefined || body.text.trim() === '';
  if (status >= 300 && status < 400) {
    // The protocol has no redirect: a client following one may send its request elsewhere.
    body.violations.splice(0, body.violations.length, {
      in: 'response',
      path: '',
      expected: operation === undefined ? 'a status that is not a redirect' : `status ${operation.status}`,
      got: `status ${status}`,
    });
    return body;
  }
  checkByStatus(body, bytes, empty, status, operation);
  const typeViolation = empty ? undefined : contentTypeViolation(headers);
  if (typeViolation !== undefined) body.violations.unshift(typeViolation);
  return body;
}

/** The body against what its status says it is: an error body, or the operation's success body. */
function checkByStatus(
  body: CheckedBody,
  bytes: Uint8Array,
  empty: boolean,
  status: number,
  operation: ProtocolOperation | undefined,
): void {
  if (status >= 400) {
    if (body.violations.length > 0 || empty) {
      body.violations.splice(0, body.violations.length, {
        in: 'response',
        path: '',
        expected: 'a JSON error body {"error": {"code", "message"}}',
        got: empty ? 'nothing' : describeText(body.text ?? lenient.decode(bytes.subarray(0, 256))),
      });
      return;
    }
    body.violations.push(...violationsOf(ErrorBodySchema, body.value, 'response'));
    return;
  }
  if (operation === undefined || status < 200 || status >= 300) return;
  if (status !== operation.status) {
    body.violations.push({
      in: 'response',
      path: '',
      expected: `status ${operation.status}`,
      got: `status ${status}`,
    });
  }
  if (operation.response === undefined || body.violations.length > 0) return;
  if (empty) {
    body.violations.push({ in: 'response', path: '', expected: 'a JSON body', got: 'nothing' });
    return;
  }
  body.violations.push(...violationsOf(operation.response, body.value, 'response'));
}

function readJson(bytes: Uint8Array, where: ProtocolViolation['in']): CheckedBody {
  let text: string;
  try {
    text = utf8.decode(bytes);
  } catch {
    return {
      text: undefined,
      value: undefined,
      violations: [{ in: where, path: '', expected: 'UTF-8 JSON', got: 'bytes that are not UTF-8' }],
    };
  }
  if (text.trim() === '') return { text, value: undefined, violations: [] };
  try {
    return { text, value: JSON.parse(text) as unknown, violations: [] };
  } catch {
    return {
      text,
      value: undefined,
      violations: [{ in: where, path: '', expected: 'JSON', got: describeText(text) }],
    };
  }
}
