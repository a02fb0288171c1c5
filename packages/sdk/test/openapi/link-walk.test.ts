import { type RunningServer, startServer } from '@parley/reference-server';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// A stateful walk through the served OpenAPI document, as Schemathesis or a generated client
// does it: every request is built from the document alone (an operation's path and method by
// its operationId, its path parameters from a link's runtime expressions, its body from the
// link or from the operation's request examples), and every response is checked against the
// document (a listed status, the body against that status's schema, every header it marks
// `required`). Nothing here knows the routes or the ids.

const TOKEN = 'parley-demo-token';

type Json = Record<string, unknown>;

interface Link {
  operationId: string;
  parameters: Record<string, string>;
  requestBody?: unknown;
}

interface Operation {
  operationId: string;
  path: string;
  method: string;
  parameters?: Array<{ $ref?: string; name?: string; in?: string }>;
  requestBody?: { content: { 'application/json': { examples?: Record<string, { value: unknown }> } } };
  responses: Record<
    string,
    {
      headers?: Record<string, { $ref?: string; required?: boolean }>;
      content?: unknown;
      links?: Record<string, Link>;
    }
  >;
}

/** One request made and its response, as a link's runtime expressions read them. */
interface Step {
  operation: Operation;
  pathParameters: Record<string, string>;
  status: number;
  body: unknown;
  headers: Headers;
}

const pointerToken = (token: string) => token.replaceAll('~', '~0').replaceAll('/', '~1');

/** The value at a JSON pointer (RFC 6901), or `undefined`. */
function atPointer(value: unknown, pointer: string): unknown {
  if (pointer === '') return value;
  let current = value;
  for (const raw of pointer.slice(1).split('/')) {
    const token = raw.replaceAll('~1', '/').replaceAll('~0', '~');
    if (typeof current !== 'object' || current === null) return undefined;
    current = (current as Json)[token];
  }
  return current;
}

/** An OpenAPI runtime expression evaluated against a step; anything else is refused. */
function evaluate(expression: string, step: Step): unknown {
  const body = /^\$response\.body#(.*)$/.exec(expression);
  if (body) return atPointer(step.body, body[1] ?? '');
  const path = /^\$request\.path\.(.+)$/.exec(expression);
  if (path) return step.pathParameters[path[1] ?? ''];
  const header = /^\$response\.header\.(.+)$/.exec(expression);
  if (header) return step.headers.get(header[1] ?? '') ?? undefined;
  throw new Error(`Runtime expression not understood by the walk: ${expression}`);
}

class Walk {
  readonly document: Json;
  readonly baseUrl: string;
  readonly failures: string[] = [];
  /** `operationId.linkName` of every link followed. */
  readonly followed = new Set<string>();
  readonly #ajv = new Ajv2020({ allErrors: true, strict: false });
  readonly #id = 'https://parley.walk.test/openapi.json';

  constructor(document: Json, baseUrl: string) {
    this.document = document;
    this.baseUrl = baseUrl;
    this.#ajv.addSchema({ ...document, $id: this.#id });
  }

  operations(): Operation[] {
    const paths = this.document.paths as Record<string, Record<string, Omit<Operation, 'path' | 'method'>>>;
    return Object.entries(paths).flatMap(([path, item]) =>
      Object.entries(item).map(([method, operation]) => ({ ...operation, path, method })),
    );
  }

  operation(operationId: string): Operation {
    const found = this.operations().find((op) => op.operationId === operationId);
    if (!found) throw new Error(`No operation ${operationId} in the document`);
    return found;
  }

  /** A `#/components/...` reference resolved in the document. */
  resolve<T>(value: { $ref?: string } | T): T {
    const ref = (value as { $ref?: string }).$ref;
    return ref === undefined ? (value as T) : (atPointer(this.document, ref.slice(1)) as T);
  }

  /** The operation's request example of this name. */
  example(operation: Operation, name: string): unknown {
    const examples = operation.requestBody?.content['application/json'].examples ?? {};
    if (!(name in examples)) throw new Error(`${operation.operationId} has no request example "${name}"`);
    return examples[name]?.value;
  }

  /** Makes a request of an operation and checks its response against the document. */
  async call(operationId: string, pathParameters: Record<string, string>, body?: unknown): Promise<Step> {
    const operation = this.operation(operationId);
    const path = operation.path.replace(/\{([^}]+)\}/g, (_, name: string) => {
      const value = pathParameters[name];
      if (value === undefined) throw new Error(`${operationId}: no value for the path parameter ${name}`);
      return encodeURIComponent(value);
    });
    const response = await fetch(`${this.baseUrl}${path}`, {
      method: operation.method.toUpperCase(),
      headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await response.text();
    const step: Step = {
      operation,
      pathParameters,
      status: response.status,
      body: text === '' ? undefined : JSON.parse(text),
      headers: response.headers,
    };
    this.#check(step, path);
    return step;
  }

  /** Follows a link of a step's response: the target's parameters and body come from the link. */
  follow(step: Step, name: string, example?: string): Promise<Step> {
    const link = step.operation.responses[String(step.status)]?.links?.[name];
    if (!link) {
      throw new Error(`${step.operation.operationId} → ${step.status} has no link "${name}"`);
    }
    this.followed.add(`${step.operation.operationId}.${name}`);
    const parameters: Record<string, string> = {};
    for (const [parameter, expression] of Object.entries(link.parameters)) {
      const value = evaluate(expression, step);
      if (typeof value !== 'string') {
        throw new Error(`${step.operation.operationId}.${name}: ${expression} gave ${JSON.stringify(value)}`);
      }
      parameters[parameter] = value;
    }
    const target = this.operation(link.operationId);
    const body =
      link.requestBody !== undefined
        ? link.requestBody
        : example === undefined
          ? undefined
          : this.example(target, example);
    return this.call(link.operationId, parameters, body);
  }

  #check(step: Step, path: string): void {
    const { operation, status } = step;
    const where = `${operation.method.toUpperCase()} ${path} → ${status}`;
    const documented = operation.responses[String(status)];
    if (!documented) {
      this.failures.push(`${where}: status not listed (${JSON.stringify(step.body)})`);
      return;
    }
    for (const [name, header] of Object.entries(documented.headers ?? {})) {
      const resolved = this.resolve<{ required?: boolean }>(header);
      if (resolved.required && !step.headers.get(name)) this.failures.push(`${where}: no ${name} header`);
    }
    if (documented.content === undefined) {
      if (step.body !== undefined) this.failures.push(`${where}: documented without a body`);
      return;
    }
    const pointer = `/paths/${pointerToken(operation.path)}/${operation.method}/responses/${status}/content/application~1json/schema`;
    const validate = this.#ajv.getSchema(`${this.#id}#${pointer}`);
    if (!validate) throw new Error(`No schema at ${pointer}`);
    if (!validate(step.body)) {
      this.failures.push(
        `${where}: ${this.#ajv.errorsText(validate.errors)} in ${JSON.stringify(step.body)}`,
      );
    }
  }
}

describe('the served OpenAPI document can be walked through its links, from a created session to a settled tool call', () => {
  let running: RunningServer;
  let walk: Walk;

  beforeAll(async () => {
    running = await startServer({ port: 0 });
    const document = (await (await fetch(`${running.url}/openapi.json`)).json()) as Json;
    walk = new Walk(document, running.url);
  });
  afterAll(() => running.close());

  it('every link names an operation and gives every path parameter it needs', () => {
    const problems: string[] = [];
    let links = 0;
    for (const operation of walk.operations()) {
      for (const [status, response] of Object.entries(operation.responses)) {
        for (const [name, link] of Object.entries(response.links ?? {})) {
          links++;
          const target = walk.operations().find((op) => op.operationId === link.operationId);
          const where = `${operation.operationId} → ${status} links.${name}`;
          if (!target) {
            problems.push(`${where}: no operation ${link.operationId}`);
            continue;
          }
          const needed = (target.parameters ?? [])
            .map((parameter) => walk.resolve<{ name: string; in: string }>(parameter))
            .filter((parameter) => parameter.in === 'path')
            .map((parameter) => parameter.name);
          for (const name of needed) {
            if (!(name in link.parameters)) problems.push(`${where}: no value for ${name}`);
          }
        }
      }
    }
    expect(problems).toEqual([]);
    expect(links).toBeGreaterThan(0);
  });

  it('marks x-request-id required on every response, so the walk checks it is there', () => {
    for (const operation of walk.operations()) {
      for (const [status, response] of Object.entries(operation.responses)) {
        const header = response.headers?.['x-request-id'];
        expect(
          header && walk.resolve<{ required?: boolean }>(header).required,
          `${operation.operationId} ${status}`,
        ).toBe(true);
      }
    }
  });

  it('create → send (a tool call) → heartbeat → respond → resume, through links and examples only', async () => {
    const created = await walk.call(
      'createSession',
      {},
      walk.example(walk.operation('createSession'), 'minimal'),
    );
    expect(created.status).toBe(201);
    const sent = await walk.follow(created, 'sendMessage', 'toolCall');
    expect(sent.status).toBe(200);
    expect(sent.body).toMatchObject({ stopReason: 'tool_use', pendingTools: [{ name: 'get_weather' }] });

    const read = await walk.follow(sent, 'readToolCall');
    expect(read.body).toMatchObject({ state: 'PENDING' });
    const beat = await walk.follow(sent, 'heartbeat', 'heartbeat');
    expect(beat.status).toBe(200);
    const readAfterBeat = await walk.follow(beat, 'readToolCall');
    expect(readAfterBeat.body).toMatchObject({ state: 'PROCESSING' });
    const beatAgain = await walk.follow(beat, 'heartbeat', 'heartbeat');
    expect(beatAgain.status).toBe(200);

    const responded = await walk.follow(sent, 'respond', 'result');
    expect(responded.status).toBe(200);
    const settled = await walk.follow(responded, 'readToolCall');
    expect(settled.body).toMatchObject({ state: 'COMPLETE' });
    const resumed = await walk.follow(responded, 'resume');
    expect(resumed.status).toBe(200);
    expect(resumed.body).toMatchObject({ stopReason: 'end_turn', pendingTools: [] });

    const exported = await walk.follow(sent, 'exportMessages');
    expect((exported.body as { messages: unknown[] }).messages).toHaveLength(4);
    expect(walk.failures).toEqual([]);
  });

  it('create → send (a tool call) → report a failure → resume; a settled call answers its routes with documented errors', async () => {
    const created = await walk.call(
      'createSession',
      {},
      walk.example(walk.operation('createSession'), 'minimal'),
    );
    const sent = await walk.follow(created, 'sendMessage', 'toolCall');
    const failed = await walk.follow(sent, 'reportFailure');
    expect(failed.status).toBe(200);
    const read = await walk.follow(failed, 'readToolCall');
    expect(read.body).toMatchObject({ state: 'ERROR' });

    // A tool call read leads to its routes too; on a settled call a beat or a result is a 409, as
    // documented, and the same failure report again is answered 200 and changes nothing.
    for (const [name, example, status] of [
      ['heartbeat', 'heartbeat', 409],
      ['respond', 'result', 409],
      ['reportFailure', undefined, 200],
    ] as const) {
      expect((await walk.follow(read, name, example)).status, name).toBe(status);
      expect((await walk.follow(failed, name, example)).status, name).toBe(status);
    }
    expect((await walk.follow(read, 'readToolCall')).body).toMatchObject({ state: 'ERROR' });
    const resumed = await walk.follow(failed, 'resume');
    expect(resumed.status).toBe(200);
    expect(resumed.body).toMatchObject({ pendingTools: [] });
    expect(walk.failures).toEqual([]);
  });

  it('create → stream, export, rewind and delete, through links and examples only', async () => {
    const created = await walk.call(
      'createSession',
      {},
      walk.example(walk.operation('createSession'), 'sessionData'),
    );
    const streamed = await walk.follow(created, 'streamMessage', 'text');
    expect(streamed.status).toBe(200);
    expect((streamed.body as { events: unknown[] }).events.at(-1)).toHaveProperty('replyStop');
    const exported = await walk.follow(streamed, 'exportMessages');
    expect((exported.body as { messages: unknown[] }).messages).toHaveLength(2);
    expect((await walk.follow(created, 'exportMessages')).body).toEqual(exported.body);

    const rewound = await walk.follow(created, 'rewindMessages', 'firstMessage');
    expect(rewound.status).toBe(200);
    const sentAgain = await walk.follow(created, 'sendMessage', 'text');
    expect(sentAgain.status).toBe(200);
    const deleted = await walk.follow(created, 'deleteSession');
    expect(deleted.status).toBe(204);
    expect((await walk.follow(created, 'exportMessages')).status).toBe(404);
    expect(walk.failures).toEqual([]);
  });

  it('the walks above followed every link of the document', () => {
    const all = walk
      .operations()
      .flatMap((operation) =>
        Object.values(operation.responses).flatMap((response) =>
          Object.keys(response.links ?? {}).map((name) => `${operation.operationId}.${name}`),
        ),
      );
    expect([...walk.followed].sort()).toEqual([...new Set(all)].sort());
  });
});
