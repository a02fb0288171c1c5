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
  if (body.text === undefined || body.text.trim() === '') {
    if (operation?.requestOptional !== true) {
      body.violations.push({ in: 'request', path: '', expected: 'a JSON body', got: 'nothing' });
    }
    return body;
  }
  body.violations.push(...violationsOf(schema, body.value, 'request'));
  return body;
}

/**
 * Reads and checks a buffered response body: an error status against the error body, the success
 * status against its operation's schema (and the status itself against the operation's).
 */
export function checkResponseBody(
  bytes: Uint8Array,
  status: number,
  operation: ProtocolOperation | undefined,
): CheckedBody {
  const body = readJson(bytes, 'response');
  const empty = body.text === undefined || body.text.trim() === '';
  if (status >= 400) {
    if (body.violations.length > 0 || empty) {
      body.violations.splice(0, body.violations.length, {
        in: 'response',
        path: '',
        expected: 'a JSON error body {"error": {"code", "message"}}',
        got: empty ? 'nothing' : describeText(body.text ?? lenient.decode(bytes)),
      });
      return body;
    }
    body.violations.push(...violationsOf(ErrorBodySchema, body.value, 'response'));
    return body;
  }
  if (operation === undefined || status < 200 || status >= 300) return body;
  if (status !== operation.status) {
    body.violations.push({
      in: 'response',
      path: '',
      expected: `status ${operation.status}`,
      got: `status ${status}`,
    });
  }
  if (operation.response === undefined || body.violations.length > 0) return body;
  if (empty) {
    body.violations.push({ in: 'response', path: '', expected: 'a JSON body', got: 'nothing' });
    return body;
  }
  body.violations.push(...violationsOf(operation.response, body.value, 'response'));
  return body;
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
