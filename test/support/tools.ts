import { BadRequestException, ForbiddenException, Injectable, InternalServerErrorException, NotFoundException } from '@nestjs/common';

import { PASSES_CONTAINMENT } from '../../lib/errors/fault-containment.js';
import { JSON_RPC_CODES, McpAction, McpMethodError, McpTool, fail, ok, type McpContext, type McpHint, type McpPlainTool, type McpToolHooks, refuse } from '../../lib/index.js';

/** A dependency the tasks tool gets injected: proves tools are built by Nest's DI. */
@Injectable()
export class TaskStore {
  private readonly tasks = new Map<number, Record<string, unknown>>();
  private nextId = 1;

  add(task: Record<string, unknown>): Record<string, unknown> {
    const stored = { id: this.nextId++, ...task };
    this.tasks.set(stored.id as number, stored);
    return stored;
  }

  get(id: number): Record<string, unknown> | undefined {
    return this.tasks.get(id);
  }

  get size(): number {
    return this.tasks.size;
  }
}

/** The action schema of `tasks.create`: every construct the gates read (exported so tests can compare). */
export const CREATE_SCHEMA = {
  description: 'Create a task',
  properties: {
    name: { type: 'string', minLength: 1, description: 'The task\'s name — "quoted", unchanged' },
    project: { type: 'string' },
    project_key: { type: 'string' },
    repo: { type: 'string' },
    due: { type: 'string', format: 'date' },
    priority: { type: 'integer', minimum: 1, maximum: 5 },
    note: { type: ['string', 'null'] },
    owner: { type: 'object', properties: { id: { type: 'integer' }, email: { type: 'string', format: 'email' } } },
    items: { type: 'array', items: { type: 'object', properties: { title: { type: 'string' }, done: { type: 'boolean' } } } },
    meta: { type: 'object', additionalProperties: true },
    labels: { type: 'object', additionalProperties: { type: 'object', properties: { color: { type: 'string' } } } },
  },
  required: ['name'],
  requiredOneOf: [['project'], ['project_key', 'repo']],
  defaults: { priority: 3, project: 'inbox', items: [] },
  notes: 'Creates one task.\nA second line of notes stays as written.',
  related: ['get'],
  examples: [{ name: 'Write docs', project: 'nest-mcp' }],
} as const;

/**
 * The test action tool: `create` (every gate), `get`, `close` (fail with and without a hint context), `raw`
 * (MCP content, full control). Implements all three hooks.
 */
@McpTool({ name: 'tasks', description: 'Task management.\nA second line stays.', title: 'Tasks', annotations: { destructiveHint: false } })
export class TasksTool implements McpToolHooks {
  constructor(private readonly store: TaskStore) {}

  @McpAction(CREATE_SCHEMA)
  create(data: Record<string, unknown>, ctx: McpContext) {
    const task = this.store.add(data);
    return ok({ task, seen: { tool: ctx.tool, action: ctx.action, priorityIsInteger: Number.isInteger(data.priority) } }, { id: task.id });
  }

  @McpAction({ description: 'Get a task by id', properties: { id: { type: 'integer' } }, required: ['id'] })
  get(data: { id: number }) {
    return this.store.get(data.id) ?? fail(`no task ${data.id}`);
  }

  @McpAction({
    name: 'close',
    description: 'Close a task',
    properties: { id: { type: 'integer' }, explain: { type: 'boolean' } },
    required: ['id'],
  })
  closeTask(data: { id: number; explain?: boolean }) {
    return data.explain ? fail({ code: 'closed', id: data.id }, { id: data.id }) : fail({ code: 'closed', id: data.id });
  }

  @McpAction({ description: 'Return MCP content directly', properties: {} })
  raw() {
    return {
      content: [
        { type: 'text', text: 'raw content' },
        { type: 'text', text: 'second block' },
      ],
    };
  }

  hints(action: string, hintContext: unknown): McpHint[] {
    const { id } = hintContext as { id: number };
    return action === 'create' || action === 'close' ? [{ tool: 'tasks', action: 'get', description: 'View the task', example: { id } }] : [];
  }

  actionContext(action: string, ctx: McpContext) {
    return action === 'create' || action === 'close' ? { stored: this.store.size, asked_by: ctx.clientInfo?.name ?? null, for: `${ctx.tool}.${ctx.action}` } : null;
  }

  formatError(reason: unknown): string {
    const { code, id } = reason as { code: string; id: number };
    return `task ${id} is ${code}`;
  }
}

/** A tool with an output schema: `good` matches it, `bad` does not, `none` returns nothing, `failed` fails. */
@McpTool({
  name: 'reports',
  description: 'Reports with structured content',
  outputSchema: { type: 'object', properties: { total: { type: 'integer' } }, required: ['total'] },
})
export class ReportsTool {
  @McpAction({ description: 'A report matching the output schema', properties: {} })
  good() {
    return { total: 3 };
  }

  @McpAction({ description: 'A report the output schema refuses', properties: {} })
  bad() {
    return { total: 'three' };
  }

  @McpAction({ description: 'No report at all', properties: {} })
  none() {
    return undefined;
  }

  @McpAction({ description: 'A failure (no structured content needed)', properties: {} })
  failed() {
    return fail('no report today');
  }
}

/** A value that passes fault containment without being a method error (like the input-required signal). */
export const PASSING_SIGNAL = { [PASSES_CONTAINMENT]: true, signal: 'input required' };

/** A tool whose every action faults a different way. */
@McpTool({ name: 'faulty', description: 'Faults on purpose' })
export class FaultyTool {
  @McpAction({ description: 'Throws an Error', properties: {} })
  error(): never {
    throw new RangeError('the disk is full\nsecond line');
  }

  @McpAction({ description: 'Throws a Nest NotFoundException', properties: {} })
  missing(): never {
    throw new NotFoundException('Task 7 not found');
  }

  @McpAction({ description: 'Throws a Nest ForbiddenException', properties: {} })
  forbidden(): never {
    throw new ForbiddenException('Tasks are read-only for you');
  }

  @McpAction({ description: 'Throws a Nest BadRequestException with a ValidationPipe-style body', properties: {} })
  invalid(): never {
    throw new BadRequestException({ message: ['title must be a string', 'due must be a date'], error: 'Bad Request', statusCode: 400 });
  }

  @McpAction({ description: 'Throws a Nest InternalServerErrorException', properties: {} })
  broken(): never {
    throw new InternalServerErrorException('the store is down');
  }

  @McpAction({ description: 'Throws a string', properties: {} })
  string(): never {
    throw 'a thrown string';
  }

  @McpAction({ description: 'Throws a plain object', properties: {} })
  object(): never {
    throw { code: 42 };
  }

  @McpAction({ description: 'Rejects a promise', properties: {} })
  async rejected(): Promise<never> {
    await new Promise((resolve) => setImmediate(resolve));
    return Promise.reject(new TypeError('async failure'));
  }

  @McpAction({ description: 'Throws a huge message', properties: {} })
  huge(): never {
    throw new Error('x'.repeat(100_000));
  }

  @McpAction({ description: 'Throws a method error on purpose', properties: {} })
  method(): never {
    throw new McpMethodError(JSON_RPC_CODES.missingRequiredClientCapability, 'Missing required client capability: elicitation', { required: ['elicitation'] });
  }

  @McpAction({ description: 'Throws a value carrying the containment pass mark', properties: {} })
  passing(): never {
    throw PASSING_SIGNAL;
  }

  @McpAction({ description: 'Returns MCP content the protocol refuses', properties: {} })
  malformed() {
    return { content: [{ type: 'text' }] };
  }

  @McpAction({ description: 'Returns a BigInt, which JSON cannot carry', properties: {} })
  bigint() {
    return { n: 10n };
  }

  @McpAction({ description: 'Returns MCP content whose structured content holds a BigInt', properties: {} })
  bigcontent() {
    return { content: [{ type: 'text', text: 'ten' }], structuredContent: { n: 10n } };
  }

  @McpAction({ description: 'Returns MCP content whose _meta contains itself', properties: {} })
  cyclic() {
    const meta: Record<string, unknown> = {};
    meta.self = meta;
    return { content: [{ type: 'text', text: 'loop' }], _meta: meta };
  }
}

/** A tool whose hooks fault: `hints` returns a non-list, `actionContext` a string. */
@McpTool({ name: 'badhooks', description: 'Hooks with wrong returns' })
export class BadHooksTool {
  @McpAction({ description: 'Asks for hints', properties: {} })
  hinted() {
    return ok({ done: true }, {});
  }

  hints(): unknown {
    return 'not a list';
  }

  actionContext(): unknown {
    return 'not an object';
  }
}

/** A plain tool: its own input schema (nested object, a format), one `run`. */
@McpTool({
  name: 'echo',
  description: 'Echoes the given text back.',
  inputSchema: {
    type: 'object',
    properties: {
      text: { type: 'string', description: 'The text to echo' },
      options: { type: 'object', properties: { upper: { type: 'boolean' }, at: { type: 'string', format: 'date-time' } } },
    },
    required: ['text'],
  },
  annotations: { readOnlyHint: true },
})
export class EchoTool implements McpPlainTool {
  run(args: { text: string; options?: { upper?: boolean } }) {
    return args.options?.upper ? args.text.toUpperCase() : args.text;
  }
}

/** A plain tool that refuses an id it does not know: the caller's error, through `refuse()`. */
@McpTool({ name: 'lookup', description: 'Looks an item up by id.', inputSchema: { type: 'object', properties: { id: { type: 'string' } }, required: ['id'] } })
export class LookupTool implements McpPlainTool {
  run(args: { id: string }) {
    return args.id === 'a1' ? { id: 'a1', name: 'Ada' } : refuse(`no item has id ${args.id}`);
  }
}

/** Every fixture tool with its dependency. */
export const ALL_TOOLS = [TaskStore, TasksTool, ReportsTool, FaultyTool, BadHooksTool, EchoTool];
