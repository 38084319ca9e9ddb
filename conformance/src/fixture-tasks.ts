import { JSON_RPC_CODES, McpMethodError, McpTool, type McpContext, type McpPlainTool } from '../../lib/index.js';

/** Resolves after `ms`, or at once when `signal` aborts (a cancelled task stops sleeping). */
const sleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    if (signal.aborted) return resolve();
    const timer = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => (clearTimeout(timer), resolve()), { once: true });
  });

const NO_ARGS = { type: 'object', properties: {} } as const;
/** What the tasks fixtures' elicitations ask: a name and a confirmation, neither required. */
const NAME_AND_CONFIRM = { type: 'object', properties: { name: { type: 'string' }, confirm: { type: 'boolean' } } } as const;

@McpTool({
  name: 'greet',
  description: 'Greets someone by name; never a task.',
  inputSchema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] },
})
export class GreetTool implements McpPlainTool {
  run(args: { name: string }) {
    return `Hello, ${args.name}!`;
  }
}

@McpTool({
  name: 'slow_compute',
  description: 'Sleeps `seconds`, then answers; a task when the client declares the tasks extension.',
  inputSchema: { type: 'object', properties: { seconds: { type: 'number', minimum: 0, maximum: 600 }, label: { type: 'string' } }, required: ['seconds'] },
  taskSupport: 'optional',
})
export class SlowComputeTool implements McpPlainTool {
  async run(args: { seconds: number; label?: string }, ctx: McpContext) {
    await sleep(args.seconds * 1000, ctx.signal);
    return `Computed ${args.label ?? 'result'} in ${args.seconds} s.`;
  }
}

@McpTool({ name: 'failing_job', description: 'Always a task; ends with a tool error after about a second.', inputSchema: NO_ARGS, taskSupport: 'required' })
export class FailingJobTool implements McpPlainTool {
  async run(_args: unknown, ctx: McpContext) {
    await sleep(1000, ctx.signal);
    return { isError: true, content: [{ type: 'text', text: 'The job failed: its input was rejected.' }] };
  }
}

@McpTool({ name: 'protocol_error_job', description: 'A task that fails with a JSON-RPC error.', inputSchema: NO_ARGS, taskSupport: 'optional' })
export class ProtocolErrorJobTool implements McpPlainTool {
  async run(_args: unknown, ctx: McpContext) {
    await sleep(300, ctx.signal);
    throw new McpMethodError(JSON_RPC_CODES.internalError, 'Internal error: the job lost its worker.');
  }
}

@McpTool({
  name: 'confirm_delete',
  description: 'Asks the user to confirm, then deletes `filename` (pretend); the task waits for the answer.',
  inputSchema: { type: 'object', properties: { filename: { type: 'string' } } },
  taskSupport: 'optional',
})
export class ConfirmDeleteTool implements McpPlainTool {
  async run(args: { filename?: string }, ctx: McpContext) {
    const file = args.filename ?? 'the file';
    // Listed first (by name), so the suite's header checks call it bare: without elicitation it still answers.
    if (!('elicitation' in ctx.clientCapabilities)) return `Kept ${file}: deleting needs a confirmation this client cannot give.`;
    const answer = await ctx.elicit({ message: `Delete ${file}?`, requestedSchema: NAME_AND_CONFIRM });
    return answer.action === 'accept' && answer.content?.confirm === true ? `Deleted ${file}.` : `Kept ${file}.`;
  }
}

@McpTool({ name: 'multi_input', description: 'Asks two questions at once; the task waits for both answers.', inputSchema: NO_ARGS, taskSupport: 'optional' })
export class MultiInputTool implements McpPlainTool {
  async run(_args: unknown, ctx: McpContext) {
    const [first, second] = await Promise.all([
      ctx.elicit({ message: 'First name?', requestedSchema: NAME_AND_CONFIRM }),
      ctx.elicit({ message: 'Second name?', requestedSchema: NAME_AND_CONFIRM }),
    ]);
    return `Got ${JSON.stringify(first.content?.name)} and ${JSON.stringify(second.content?.name)}.`;
  }
}

@McpTool({
  name: 'test_tool_with_task',
  description: 'Asks for a name in the call (MRTR), then becomes a task that greets it.',
  inputSchema: NO_ARGS,
  taskSupport: 'required',
  taskStart: 'handler',
})
export class ToolWithTask implements McpPlainTool {
  async run(_args: unknown, ctx: McpContext) {
    const answer = await ctx.elicit(
      { message: 'What is your name?', requestedSchema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] } },
      { key: 'user_name' },
    );
    await ctx.startTask();
    await sleep(300, ctx.signal);
    return `Hello, ${String(answer.content?.name)}, from a task.`;
  }
}

/** The tasks-extension fixtures the official suite calls by name. */
export const FIXTURE_TASKS = [GreetTool, SlowComputeTool, FailingJobTool, ProtocolErrorJobTool, ConfirmDeleteTool, MultiInputTool, ToolWithTask];
