import { setTimeout as sleep } from 'node:timers/promises';

import { McpTool, isMethodError, type McpContext, type McpPlainTool } from '../../lib/index.js';

const NO_ARGS = { type: 'object', properties: {} } as const;

/** What the destructive tools did, so a test can prove a side effect waited for the answer. */
export const sideEffects: string[] = [];

/** Asks for confirmation (explicit key), then deletes: the side effect happens only on accept + confirm. */
@McpTool({
  name: 'confirm_delete',
  description: 'Deletes a file after confirmation.',
  inputSchema: { type: 'object', properties: { file: { type: 'string' }, limit: { description: 'Any value: part of the call a state is bound to.' } }, required: ['file'] },
})
export class ConfirmDeleteTool implements McpPlainTool {
  async run(args: { file: string }, ctx: McpContext) {
    const answer = await ctx.elicit(
      {
        message: `Delete ${args.file}?`,
        requestedSchema: { type: 'object', properties: { confirm: { type: 'boolean' } }, required: ['confirm'] },
      },
      { key: 'confirm' },
    );
    if (answer.action !== 'accept' || answer.content?.confirm !== true) return `Kept ${args.file} (${answer.action}).`;
    sideEffects.push(`deleted ${args.file}`);
    return `Deleted ${args.file}.`;
  }
}

/** Asks for elicitation, sampling and roots at once (before awaiting any). */
@McpTool({ name: 'gather', description: 'Asks for three inputs at once.', inputSchema: NO_ARGS })
export class GatherTool implements McpPlainTool {
  async run(_args: unknown, ctx: McpContext) {
    const [name, greeting, roots] = await Promise.all([
      ctx.elicit(
        { message: 'What is your name?', requestedSchema: { type: 'object', properties: { name: { type: 'string', minLength: 1 } }, required: ['name'] } },
        { key: 'user_name' },
      ),
      ctx.sample({ messages: [{ role: 'user', content: { type: 'text', text: 'Say hello' } }], maxTokens: 50 }, { key: 'greeting' }),
      ctx.listRoots({ key: 'client_roots' }),
    ]);
    const text = (greeting.content as { text?: string }).text;
    return `${text} ${String(name.content?.name)}; roots: ${roots.map((r) => r.uri).join(', ')}`;
  }
}

/** Asks twice in one macrotask, the second request a few microtasks after the first (an async helper's awaits). */
@McpTool({ name: 'staggered', description: 'Asks twice, a few microtasks apart.', inputSchema: NO_ARGS })
export class StaggeredTool implements McpPlainTool {
  async run(_args: unknown, ctx: McpContext) {
    const later = async () => {
      for (let i = 0; i < 10; i++) await Promise.resolve();
      return ctx.listRoots({ key: 'later' });
    };
    await Promise.all([ctx.sample({ messages: [{ role: 'user', content: { type: 'text', text: 'hi' } }], maxTokens: 5 }, { key: 'first' }), later()]);
    return 'answered';
  }
}

/** Three rounds; its own state changes every round. */
@McpTool({ name: 'three_rounds', description: 'Asks two questions in two rounds.', inputSchema: NO_ARGS })
export class ThreeRoundsTool implements McpPlainTool {
  async run(_args: unknown, ctx: McpContext) {
    const state = (ctx.state as { visits: number[] } | undefined) ?? { visits: [] };
    state.visits.push(state.visits.length + 1);
    ctx.state = state;
    const name = await ctx.elicit(
      { message: 'Step 1: What is your name?', requestedSchema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] } },
      { key: 'step1' },
    );
    const color = await ctx.elicit(
      { message: 'Step 2: What is your favorite color?', requestedSchema: { type: 'object', properties: { color: { type: 'string' } }, required: ['color'] } },
      { key: 'step2' },
    );
    return `${String(name.content?.name)} likes ${String(color.content?.color)}; visits ${state.visits.join(',')}`;
  }
}

/** Input requests without explicit keys: keys follow call order per kind. */
@McpTool({ name: 'default_keys', description: 'Asks without keys.', inputSchema: NO_ARGS })
export class DefaultKeysTool implements McpPlainTool {
  async run(_args: unknown, ctx: McpContext) {
    const form = { type: 'object' as const, properties: { v: { type: 'string' as const } } };
    const answers = await Promise.all([
      ctx.elicit({ message: 'first', requestedSchema: form }),
      ctx.elicit({ message: 'second', requestedSchema: form }),
      ctx.sample({ messages: [{ role: 'user', content: { type: 'text', text: 'hi' } }], maxTokens: 5 }),
    ]);
    return answers.map((a) => JSON.stringify(a)).join(' | ');
  }
}

/** A tool list kept as a constant: `ctx.sample` takes it readonly. */
const SAMPLING_TOOLS = [{ name: 't', inputSchema: { type: 'object' } }] as const;

/** Asks for one input of the kind named in its arguments (for capability checks). */
@McpTool({
  name: 'ask',
  description: 'Asks for one input of a given kind.',
  inputSchema: {
    type: 'object',
    properties: { kind: { enum: ['form', 'ratio', 'url', 'sampling', 'sampling_tools', 'sampling_tool_choice', 'sampling_context', 'sampling_no_context', 'roots'] } },
    required: ['kind'],
  },
})
export class AskTool implements McpPlainTool {
  async run(args: { kind: string }, ctx: McpContext) {
    const messages = [{ role: 'user' as const, content: { type: 'text', text: 'hi' } }];
    switch (args.kind) {
      case 'form':
        return ctx.elicit({ message: 'ok?', requestedSchema: { type: 'object', properties: { ok: { type: 'boolean' } } } });
      case 'ratio':
        return ctx.elicit({
          message: 'Which share?',
          requestedSchema: { type: 'object', properties: { ratio: { type: 'number', minimum: 0, maximum: 1 } }, required: ['ratio'] },
        });
      case 'url':
        return ctx.elicit({ mode: 'url', message: 'Sign in', url: 'https://example.com/flow' });
      case 'sampling':
        return ctx.sample({ messages, maxTokens: 5 });
      case 'sampling_tools':
        return ctx.sample({ messages, maxTokens: 5, tools: SAMPLING_TOOLS });
      case 'sampling_tool_choice':
        return ctx.sample({ messages, maxTokens: 5, toolChoice: { mode: 'none' } });
      case 'sampling_context':
        return ctx.sample({ messages, maxTokens: 5, includeContext: 'thisServer' });
      case 'sampling_no_context':
        return ctx.sample({ messages, maxTokens: 5, includeContext: 'none' });
      default:
        return ctx.listRoots();
    }
  }
}

/** Adapts to the declared capabilities: asks only for what the client can answer. */
@McpTool({ name: 'adaptive', description: 'Asks only for declared inputs.', inputSchema: NO_ARGS })
export class AdaptiveTool implements McpPlainTool {
  async run(_args: unknown, ctx: McpContext) {
    const asks: Promise<unknown>[] = [];
    if (ctx.clientCapabilities.elicitation) asks.push(ctx.elicit({ message: 'Name?', requestedSchema: { type: 'object', properties: { name: { type: 'string' } } } }));
    if (ctx.clientCapabilities.sampling) asks.push(ctx.sample({ messages: [{ role: 'user', content: { type: 'text', text: 'hi' } }], maxTokens: 5 }));
    if (ctx.clientCapabilities.roots) asks.push(ctx.listRoots());
    await Promise.all(asks);
    return 'adapted';
  }
}

/** Catches -32021 and does without sampling. */
@McpTool({ name: 'degrade', description: 'Uses sampling when it can.', inputSchema: NO_ARGS })
export class DegradeTool implements McpPlainTool {
  async run(_args: unknown, ctx: McpContext) {
    try {
      const answer = await ctx.sample({ messages: [{ role: 'user', content: { type: 'text', text: 'hi' } }], maxTokens: 5 });
      return `sampled: ${(answer.content as { text?: string }).text}`;
    } catch (thrown) {
      if (isMethodError(thrown) && thrown.code === -32021) return 'without sampling';
      throw thrown;
    }
  }
}

/** Swallows the input-required signal and returns anyway (a tool author's mistake). */
@McpTool({ name: 'swallow', description: 'Catches everything.', inputSchema: NO_ARGS })
export class SwallowTool implements McpPlainTool {
  async run(_args: unknown, ctx: McpContext) {
    try {
      await ctx.elicit({ message: 'ok?', requestedSchema: { type: 'object', properties: { ok: { type: 'boolean' } } } }, { key: 'ok' });
    } catch {
      // swallowed
    }
    return 'completed anyway';
  }
}

/** Misuses the input requests: the kind given in its arguments. */
@McpTool({
  name: 'misuse',
  description: 'Misuses input requests.',
  inputSchema: {
    type: 'object',
    properties: {
      how: {
        enum: ['invalid_request', 'off_shape_fields', 'duplicate_key', 'bad_key', 'number_key', 'derived_key_taken', 'huge_state', 'unbuildable_schema', 'endless_schema'],
      },
    },
    required: ['how'],
  },
})
export class MisuseTool implements McpPlainTool {
  async run(args: { how: string }, ctx: McpContext) {
    const form = { message: 'ok?', requestedSchema: { type: 'object' as const, properties: { ok: { type: 'boolean' as const } } } };
    if (args.how === 'invalid_request') return ctx.elicit({ message: 'no schema' } as never);
    if (args.how === 'off_shape_fields') {
      // What zod writes for z.uuid(), .nullable() and a nested object: none is a field of MCP's forms.
      const properties = { ok: { type: 'boolean' }, id: { type: 'string', format: 'uuid' }, note: { type: ['string', 'null'] }, address: { type: 'object', properties: {} } };
      return ctx.elicit({ message: 'Details?', requestedSchema: { type: 'object', properties } } as never);
    }
    if (args.how === 'duplicate_key') return Promise.all([ctx.elicit(form, { key: 'k' }), ctx.elicit(form, { key: 'k' })]);
    if (args.how === 'bad_key') return ctx.elicit(form, { key: 'not a key!' });
    if (args.how === 'number_key') return ctx.elicit(form, { key: 12 as never });
    if (args.how === 'derived_key_taken') return Promise.all([ctx.elicit(form, { key: 'elicit-1' }), ctx.elicit(form)]);
    if (args.how === 'unbuildable_schema')
      return ctx.elicit({ ...form, requestedSchema: { ...form.requestedSchema, $schema: 'http://json-schema.org/draft-07/schema#' } }, { key: 'ok' });
    if (args.how === 'endless_schema') return ctx.elicit({ ...form, requestedSchema: { ...form.requestedSchema, allOf: [{ $ref: '#' }] } as never }, { key: 'ok' });
    ctx.state = { blob: 'x'.repeat(70_000) };
    return 'unreachable';
  }
}

/** Reports progress 0, 50, 100 of 100 (and two values that do not increase, an equal and a smaller one, which are dropped). */
@McpTool({ name: 'progress', description: 'Reports progress.', inputSchema: NO_ARGS })
export class ProgressTool implements McpPlainTool {
  run(_args: unknown, ctx: McpContext) {
    const sent = [ctx.progress(0, 100, 'start'), ctx.progress(50, 100), ctx.progress(50, 100, 'equal'), ctx.progress(40, 100, 'backwards'), ctx.progress(100, 100, 'done')];
    return { sent };
  }
}

/** Reports progress that is not a finite number (or a total that is not, or a message that is no string), recording what each report threw. */
@McpTool({ name: 'bad_progress', description: 'Reports non-finite progress.', inputSchema: NO_ARGS })
export class BadProgressTool implements McpPlainTool {
  run(_args: unknown, ctx: McpContext) {
    const reports: (() => boolean)[] = [
      () => ctx.progress(Number.NaN),
      () => ctx.progress(Number.POSITIVE_INFINITY),
      () => ctx.progress(Number.NEGATIVE_INFINITY),
      () => ctx.progress(1, Number.NaN),
      () => ctx.progress(1, 2, 42 as unknown as string),
    ];
    const thrown = reports.map((report) => {
      try {
        report();
        return 'nothing';
      } catch (error) {
        return error instanceof TypeError ? 'TypeError' : 'another error';
      }
    });
    return { thrown };
  }
}

/** Logs at four levels. */
@McpTool({ name: 'logs', description: 'Logs at several levels.', inputSchema: NO_ARGS })
export class LogsTool implements McpPlainTool {
  run(_args: unknown, ctx: McpContext) {
    const sent = [ctx.log.debug('debug line'), ctx.log.info({ step: 'info' }), ctx.log.warning('warning line', 'custom-logger'), ctx.log.error('error line')];
    return { sent };
  }
}

/** Sends progress, then asks for sampling: without the capability, the -32021 is the stream's last event. */
@McpTool({ name: 'progress_then_sample', description: 'Progress, then sampling.', inputSchema: NO_ARGS })
export class ProgressThenSampleTool implements McpPlainTool {
  async run(_args: unknown, ctx: McpContext) {
    ctx.progress(1, 2, 'thinking');
    const answer = await ctx.sample({ messages: [{ role: 'user', content: { type: 'text', text: 'hi' } }], maxTokens: 5 }, { key: 's' });
    return (answer.content as { text?: string }).text;
  }
}

/** How many notifications the flood tool managed to send, and whether it is done. */
export const floods: { sent: number; done: boolean }[] = [];

/** Sends 20 000 progress notifications of 1 KiB as fast as it can (the backpressure test). */
@McpTool({ name: 'flood', description: 'Floods progress.', inputSchema: NO_ARGS })
export class FloodTool implements McpPlainTool {
  async run(_args: unknown, ctx: McpContext) {
    const run = { sent: 0, done: false };
    floods.push(run);
    const message = 'x'.repeat(1024);
    for (let i = 1; i <= 20_000; i++) {
      if (ctx.progress(i, 20_000, message)) run.sent++;
      if (i % 500 === 0) await sleep(1);
    }
    run.done = true;
    return { sent: run.sent };
  }
}

/** What the slow tool saw, for the cancellation test. */
export const slowRuns: { aborted: boolean; progressAfterAbort?: boolean; logEnabledAfterAbort?: boolean; logAfterAbort?: boolean; finished: boolean }[] = [];

/** Reports progress, then waits for the client to go away (at most 5 s) and tries to write again. */
@McpTool({ name: 'slow', description: 'Waits for cancellation.', inputSchema: NO_ARGS })
export class SlowTool implements McpPlainTool {
  async run(_args: unknown, ctx: McpContext) {
    const run: (typeof slowRuns)[number] = { aborted: false, finished: false };
    slowRuns.push(run);
    ctx.progress(1, 10, 'started');
    await sleep(5000, undefined, { signal: ctx.signal }).catch(() => undefined);
    run.aborted = ctx.signal.aborted;
    await sleep(20);
    run.progressAfterAbort = ctx.progress(2, 10, 'still here');
    run.logEnabledAfterAbort = ctx.log.enabled('error');
    run.logAfterAbort = ctx.log.error('still here');
    run.finished = true;
    return 'finished after the client left';
  }
}

/** Every test tool above. */
export const MRTR_TEST_TOOLS = [
  ConfirmDeleteTool,
  GatherTool,
  StaggeredTool,
  ThreeRoundsTool,
  DefaultKeysTool,
  AskTool,
  AdaptiveTool,
  DegradeTool,
  SwallowTool,
  MisuseTool,
  ProgressTool,
  BadProgressTool,
  LogsTool,
  ProgressThenSampleTool,
  SlowTool,
  FloodTool,
];
