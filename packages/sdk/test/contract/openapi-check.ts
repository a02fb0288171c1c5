import { createOpenApiDocument, STREAM_EVENT_KINDS } from '@parley/protocol/openapi';
import type { FetchLike } from '@parley/sdk';
import { JSONParser } from '@streamparser/json';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';

const DOCUMENT_ID = 'https://parley.contract.test/openapi.json';
const document = createOpenApiDocument();
const ajv = new Ajv2020({ allErrors: true });
// The document's top-level fields are not JSON Schema keywords; its schemas are reached by pointer.
for (const keyword of ['openapi', 'info', 'servers', 'security', 'tags', 'paths', 'components']) {
  ajv.addKeyword(keyword);
}
ajv.addSchema({ ...document, $id: DOCUMENT_ID });

interface Operation {
  template: string;
  method: string;
  pattern: RegExp;
  responses: Record<string, { content?: Record<string, unknown> }>;
}

const OPERATIONS: Operation[] = Object.entries(document.paths).flatMap(([template, item]) =>
  Object.entries(item).map(([method, operation]) => ({
    template,
    method: method.toUpperCase(),
    pattern: new RegExp(`^${template.replace(/\{[^}]+\}/g, '[^/]+')}$`),
    responses: (operation as { responses: Operation['responses'] }).responses,
  })),
);
const KNOWN_EVENT_KINDS: ReadonlySet<string> = new Set(STREAM_EVENT_KINDS);
const validators = new Map<string, ValidateFunction>();

/** The compiled validator of a JSON pointer into the document (cached). */
function validatorAt(pointer: string): ValidateFunction {
  let validate = validators.get(pointer);
  if (!validate) {
    validate = ajv.getSchema(`${DOCUMENT_ID}#${pointer}`);
    if (!validate) throw new Error(`The OpenAPI document has no schema at ${pointer}`);
    validators.set(pointer, validate);
  }
  return validate;
}

const pointerToken = (token: string) => token.replaceAll('~', '~0').replaceAll('/', '~1');

/**
 * Checks every response a fetch gets against the OpenAPI document: the operation exists, the status
 * is one it lists, and a JSON body is valid against that response's schema (for the stream, the
 * whole body and each event, which must be of a documented kind). Problems are collected in
 * `failures`; stream bodies are checked once they end, so await `settled()` before reading them.
 */
export class OpenApiCheck {
  readonly failures: string[] = [];
  /** Responses checked to the end of their body (aborted ones are not counted). */
  checked = 0;
  #pending: Promise<void>[] = [];
  #basePath: string;

  constructor(baseUrl: string) {
    this.#basePath = new URL(baseUrl).pathname.replace(/\/$/, '');
  }

  /** Wraps a fetch: responses pass through unchanged, a copy is checked. */
  wrap(fetch: FetchLike): FetchLike {
    return async (request) => {
      const response = await fetch(request);
      const check = this.#check(request, response.clone()).catch((error: unknown) => {
        this.failures.push(`${request.method} ${request.url}: the check failed: ${String(error)}`);
      });
      this.#pending.push(check);
      return response;
    };
  }

  /** Waits for the checks of every response so far (stream bodies end first). */
  async settled(): Promise<void> {
    while (this.#pending.length > 0) await Promise.all(this.#pending.splice(0));
  }

  /** Returns and clears the failures. */
  take(): string[] {
    return this.failures.splice(0);
  }

  async #check(request: Request, response: Response): Promise<void> {
    const path = new URL(request.url).pathname.slice(this.#basePath.length);
    const where = `${request.method} ${path} → ${response.status}`;
    const operation = OPERATIONS.find((op) => op.method === request.method && op.pattern.test(path));
    const documented = operation?.responses[String(response.status)];
    const streamed = documented?.content !== undefined && path.endsWith('/stream');
    const { text, aborted } = await readBody(
      response,
      request.signal,
      streamed ? this.#eventChecker(where) : undefined,
    );
    // A body the client aborted is incomplete by design: its complete events were checked.
    if (aborted) return;
    this.checked++;
    if (!operation) {
      // Unknown routes are documented once, in the description: 404 route_not_found (401 first).
      const code = (parse(text) as { error?: { code?: unknown } } | undefined)?.error?.code;
      if (!(response.status === 404 && code === 'route_not_found') && response.status !== 401) {
        this.failures.push(`${where}: no operation in the OpenAPI document (${text.slice(0, 200)})`);
      }
      return;
    }
    if (!documented) {
      const listed = Object.keys(operation.responses).join(', ');
      this.failures.push(
        `${where}: status not listed for ${operation.template} (${listed}): ${text.slice(0, 200)}`,
      );
      return;
    }
    if (documented.content === undefined) {
      if (text !== '') this.failures.push(`${where}: documented without a body, got ${text.slice(0, 200)}`);
      return;
    }
    if (!/^application\/json\b/.test(response.headers.get('content-type') ?? '')) {
      this.failures.push(
        `${where}: content-type ${response.headers.get('content-type')}, documented application/json`,
      );
    }
    const body = parse(text);
    if (body === undefined) {
      this.failures.push(`${where}: the body is not JSON: ${text.slice(0, 200)}`);
      return;
    }
    const method = operation.method.toLowerCase();
    const pointer = `/paths/${pointerToken(operation.template)}/${method}/responses/${response.status}/content/application~1json/schema`;
    this.#validate(where, validatorAt(pointer), body);
  }

  /** Checks each event of a stream as soon as it is complete, so a cut stream is checked too. */
  #eventChecker(where: string): JSONParser {
    const parser = new JSONParser({ paths: ['$.events.*'], keepStack: false });
    let index = 0;
    parser.onValue = ({ value }) => {
      const at = `${where} event ${index++}`;
      this.#validate(at, validatorAt('/components/schemas/StreamEvent'), value);
      const kind = Object.keys(value as object)[0] ?? '';
      if (!KNOWN_EVENT_KINDS.has(kind)) this.failures.push(`${at}: undocumented kind "${kind}"`);
    };
    parser.onError = () => {}; // The whole body is parsed (and reported) once it ends.
    return parser;
  }

  #validate(where: string, validate: ValidateFunction, value: unknown): void {
    if (validate(value)) return;
    const errors = (validate.errors ?? [])
      .map((e) => `${e.instancePath || '/'} ${e.message ?? ''}`)
      .slice(0, 5);
    this.failures.push(`${where}: ${errors.join('; ')} in ${JSON.stringify(value).slice(0, 300)}`);
  }
}

/**
 * Reads a response copy to its end, feeding a stream parser on the way. When the request is
 * aborted the copy is cancelled: undici leaves the other branch of a cloned body open otherwise.
 */
async function readBody(
  response: Response,
  signal: AbortSignal,
  eventParser: JSONParser | undefined,
): Promise<{ text: string; aborted: boolean }> {
  let parser = eventParser;
  if (response.body === null) return { text: '', aborted: false };
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  const cancel = () => void reader.cancel().catch(() => {});
  signal.addEventListener('abort', cancel, { once: true });
  let text = '';
  try {
    if (signal.aborted) cancel();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      text += decoder.decode(value, { stream: true });
      try {
        if (parser && !parser.isEnded) parser.write(value);
      } catch {
        parser = undefined; // Not JSON: reported once the whole body is parsed.
      }
    }
  } catch {
    return { text, aborted: true };
  } finally {
    signal.removeEventListener('abort', cancel);
  }
  return { text: text + decoder.decode(), aborted: signal.aborted };
}

function parse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
