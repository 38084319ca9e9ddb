import type { Server } from 'node:http';
import { setTimeout as sleepOrThrow } from 'node:timers/promises';

import { JSON_RPC_CODES, McpAction, McpMethodError, McpTool, TASKS_EXTENSION, type McpContext, type McpPlainTool } from '../../lib/index.js';
import { meta, post, rpc } from './mcp-client.js';

/** Client capabilities declaring the tasks extension (and elicitation, so tasks may ask). */
export const TASK_CAPS = { elicitation: {}, extensions: { [TASKS_EXTENSION]: {} } };

/** A tools/call declaring the tasks extension (or the capabilities given). */
export const taskCall = (server: Server, name: string, args: Record<string, unknown> = {}, caps: Record<string, unknown> = TASK_CAPS, headers: Record<string, string> = {}) =>
  post(server, rpc('tools/call', { name, arguments: args, _meta: meta({ 'io.modelcontextprotocol/clientCapabilities': caps }) }), headers);

/** A tasks/* request declaring the tasks extension (or the capabilities given). */
export const tasksRequest = (
  server: Server,
  method: string,
  params: Record<string, unknown>,
  caps: Record<string, unknown> = TASK_CAPS,
  headers: Record<string, string> = {},
) => post(server, rpc(method, { ...params, _meta: meta({ 'io.modelcontextprotocol/clientCapabilities': caps }) }), headers);

/** Polls tasks/get until the task's status is one of `statuses`; the last DetailedTask. */
export async function waitForStatus(
  server: Server,
  taskId: string,
  statuses: readonly string[],
  headers: Record<string, string> = {},
  timeoutMs = 5000,
): Promise<Record<string, any>> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const res = await tasksRequest(server, 'tasks/get', { taskId }, TASK_CAPS, headers);
    if (res.body.result && statuses.includes(res.body.result.status)) return res.body.result;
    if (Date.now() > deadline) throw new Error(`task ${taskId} did not reach ${statuses.join('/')}: ${JSON.stringify(res.body)}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** Resolves after `ms` (false), at once when `signal` aborts (false), or when the returned `wake` is called (true). */
const sleep = (ms: number, signal: AbortSignal) => {
  let end = (_woken: boolean) => {};
  const slept = new Promise<boolean>((resolve) => {
    const timer = setTimeout(() => end(false), ms);
    end = (woken) => (clearTimeout(timer), resolve(woken));
    signal.addEventListener('abort', () => end(false), { once: true });
  });
  return { slept, wake: () => end(true) };
};

/** What the task tools saw, for tests to read: each run's signal, and `wake` to end its sleep, by the tool's `tag` argument. */
export const taskRuns = new Map<string, { signal: AbortSignal; wake?: () => void }>();

const TAGGED = { type: 'object', properties: { tag: { type: 'string' }, ms: { type: 'integer' }, throwOnAbort: { type: 'boolean' } } } as const;

/** Sleeps `ms` (default 10 s) unless its signal aborts or a test wakes it; a task whenever the client declares the extension. */
@McpTool({ name: 'sleeper', description: 'Sleeps ms, then answers.', inputSchema: TAGGED, taskSupport: 'optional' })
export class SleeperTool implements McpPlainTool {
  async run(args: { tag?: string; ms?: number; throwOnAbort?: boolean }, ctx: McpContext) {
    // throwOnAbort: hands the signal on, as docs/mrtr.md suggests, to an API that rejects with its own AbortError.
    if (args.throwOnAbort) {
      if (args.tag) taskRuns.set(args.tag, { signal: ctx.signal });
      await sleepOrThrow(args.ms ?? 10_000, undefined, { signal: ctx.signal });
    } else {
      const { slept, wake } = sleep(args.ms ?? 10_000, ctx.signal);
      if (args.tag) taskRuns.set(args.tag, { signal: ctx.signal, wake });
      if (await slept) return 'woken';
    }
    return ctx.signal.aborted ? 'aborted' : `slept ${args.ms ?? 10_000} ms`;
  }
}

/** Must run as a task; answers at once. */
@McpTool({ name: 'must_task', description: 'Always a task.', inputSchema: { type: 'object', properties: {} }, taskSupport: 'required' })
export class MustTaskTool implements McpPlainTool {
  run() {
    return 'done as a task';
  }
}

/** Asks two questions inside its task, then answers with both. */
@McpTool({ name: 'interview', description: 'Asks for a name and a city.', inputSchema: { type: 'object', properties: {} }, taskSupport: 'optional' })
export class InterviewTool implements McpPlainTool {
  async run(_args: unknown, ctx: McpContext) {
    const schema = (key: string) => ({ type: 'object', properties: { [key]: { type: 'string' } }, required: [key] }) as const;
    const [name, city] = await Promise.all([
      ctx.elicit({ message: 'Name?', requestedSchema: schema('name') }, { key: 'name' }),
      ctx.elicit({ message: 'City?', requestedSchema: schema('city') }, { key: 'city' }),
    ]);
    return `${String(name.content?.name)} from ${String(city.content?.city)}`;
  }
}

/** Asks in the call (MRTR), then becomes a task (`taskStart: 'handler'`). */
@McpTool({ name: 'ask_then_task', description: 'Asks, then runs as a task.', inputSchema: { type: 'object', properties: {} }, taskSupport: 'required', taskStart: 'handler' })
export class AskThenTaskTool implements McpPlainTool {
  async run(_args: unknown, ctx: McpContext) {
    ctx.state ??= { asked: 'topic' }; // carried by requestState to round 2, then into the task
    const answer = await ctx.elicit(
      { message: 'Topic?', requestedSchema: { type: 'object', properties: { topic: { type: 'string' } }, required: ['topic'] } },
      { key: 'topic' },
    );
    const before = ctx.taskId;
    await ctx.startTask();
    await sleep(50, ctx.signal);
    return `report on ${String(answer.content?.topic)} (task before start: ${String(before)}, after: ${ctx.taskId !== undefined}, state: ${JSON.stringify(ctx.state)})`;
  }
}

/** Asks in the call, becomes a task, asks again in the task: both with derived keys. */
@McpTool({
  name: 'ask_task_ask',
  description: 'Asks, runs as a task, asks again.',
  inputSchema: { type: 'object', properties: {} },
  taskSupport: 'required',
  taskStart: 'handler',
})
export class AskTaskAskTool implements McpPlainTool {
  async run(_args: unknown, ctx: McpContext) {
    const schema = { type: 'object', properties: { ok: { type: 'boolean' } }, required: ['ok'] } as const;
    const first = await ctx.elicit({ message: 'First?', requestedSchema: schema });
    await ctx.startTask();
    const second = await ctx.elicit({ message: 'Second?', requestedSchema: schema });
    return `first ${String(first.content?.ok)}, second ${String(second.content?.ok)}`;
  }
}

/** Calls `ctx.startTask()` while its own input request is still unanswered (a misuse), and says how that went. */
@McpTool({ name: 'starts_early', description: 'Starts a task too early.', inputSchema: { type: 'object', properties: {} }, taskSupport: 'optional', taskStart: 'handler' })
export class StartsEarlyTool implements McpPlainTool {
  async run(_args: unknown, ctx: McpContext) {
    const asked = ctx.elicit({ message: 'Sure?', requestedSchema: { type: 'object', properties: { ok: { type: 'boolean' } } } }, { key: 'sure' });
    try {
      await ctx.startTask();
      return 'started';
    } catch (refused) {
      return `refused: ${(refused as Error).message}`;
    } finally {
      await asked.catch(() => undefined);
    }
  }
}

/** Fails its task: a method error (failed) or a fault (a contained tool_fault result, completed). */
@McpTool({
  name: 'breaks',
  description: 'Fails.',
  inputSchema: { type: 'object', properties: { how: { enum: ['method', 'fault'] } }, required: ['how'] },
  taskSupport: 'optional',
})
export class BreaksTool implements McpPlainTool {
  async run(args: { how: 'method' | 'fault' }, ctx: McpContext) {
    await sleep(20, ctx.signal);
    if (args.how === 'method') throw new McpMethodError(JSON_RPC_CODES.internalError, 'Internal error: the worker is gone.', { worker: 7 });
    throw new RangeError('index out of range');
  }
}

/** An action tool whose `export` and `wait` actions run as tasks and whose `peek` never does. */
@McpTool({ name: 'reports', description: 'Reports.' })
export class ReportsTool {
  @McpAction({ description: 'Exports a report.', properties: {}, taskSupport: 'required' })
  async export(_data: unknown, ctx: McpContext) {
    await sleep(20, ctx.signal);
    return { exported: true, task: ctx.taskId !== undefined };
  }

  /** Sleeps (10 s) unless its signal aborts or a test wakes it, by its `tag`. */
  @McpAction({ description: 'Waits.', properties: { tag: { type: 'string' } }, required: ['tag'], taskSupport: 'required' })
  async wait(data: { tag: string }, ctx: McpContext) {
    const { slept, wake } = sleep(10_000, ctx.signal);
    taskRuns.set(data.tag, { signal: ctx.signal, wake });
    return (await slept) ? 'woken' : 'aborted';
  }

  @McpAction({ description: 'Peeks.', properties: {} })
  peek(_data: unknown, ctx: McpContext) {
    return { task: ctx.taskId !== undefined };
  }
}

export const TASK_TOOLS = [SleeperTool, MustTaskTool, InterviewTool, AskThenTaskTool, AskTaskAskTool, StartsEarlyTool, BreaksTool, ReportsTool];
