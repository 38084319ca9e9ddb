// The bench app's tools, written against the public API only (the package name, as a consumer imports it).
import type { Type } from '@nestjs/common';
import { McpAction, McpTool, type McpActionSchema, type McpContext, type McpPlainTool } from 'nest-mcp';

import { ECHO_INPUT_SCHEMA, PROGRESS_DONE_TEXT, PROGRESS_STEPS, VALID_TEXT, VALIDATE_INPUT_SCHEMA, fillerToolDefinitions } from '../common/bench-data.js';

/** `echo` as a plain tool: answers its `text` as text content. */
@McpTool({ name: 'echo', description: 'Echoes the given text back.', inputSchema: ECHO_INPUT_SCHEMA })
export class EchoTool implements McpPlainTool {
  run(args: { text: string }): string {
    return args.text;
  }
}

/** `validate` as a plain tool: the library checks the arguments against the schema; the tool answers `valid`. */
@McpTool({ name: 'validate', description: 'Validates a user record against its schema.', inputSchema: VALIDATE_INPUT_SCHEMA })
export class ValidateTool implements McpPlainTool {
  run(): string {
    return VALID_TEXT;
  }
}

/** The action schema of an action made from a plain tool's input schema (its properties and required list). */
function actionSchema(description: string, inputSchema: Record<string, unknown>): McpActionSchema {
  return {
    description,
    properties: inputSchema.properties as McpActionSchema['properties'],
    required: inputSchema.required as string[],
  };
}

/** `bench`: the same two tools as the actions `echo` and `validate` of one action tool. */
@McpTool({ name: 'bench', description: 'The echo and validate tools as actions of one tool.' })
export class BenchActionTool {
  @McpAction(actionSchema('Echoes the given text back', ECHO_INPUT_SCHEMA))
  echo(data: { text: string }): string {
    return data.text;
  }

  @McpAction(actionSchema('Validates a user record against its schema', VALIDATE_INPUT_SCHEMA))
  validate(): string {
    return VALID_TEXT;
  }
}

/** `confirm`: one multi round-trip request; asks the client to confirm, then answers `confirmed <text>`. */
@McpTool({ name: 'confirm', description: 'Asks the user to confirm, then echoes the text.', inputSchema: ECHO_INPUT_SCHEMA })
export class ConfirmTool implements McpPlainTool {
  async run(args: { text: string }, ctx: McpContext): Promise<string> {
    const answer = await ctx.elicit(
      {
        message: `Echo "${args.text}"?`,
        requestedSchema: { type: 'object', properties: { confirm: { type: 'boolean' } }, required: ['confirm'] },
      },
      { key: 'confirm' },
    );
    return answer.action === 'accept' && answer.content?.confirm === true ? `confirmed ${args.text}` : 'declined';
  }
}

/** `progress`: sends {@link PROGRESS_STEPS} progress notifications (an SSE answer when asked), then its result. */
@McpTool({ name: 'progress', description: 'Reports progress, then finishes.', inputSchema: { type: 'object', properties: {}, additionalProperties: false } })
export class ProgressTool implements McpPlainTool {
  run(_args: Record<string, never>, ctx: McpContext): string {
    for (let step = 1; step <= PROGRESS_STEPS; step++) ctx.progress(step, PROGRESS_STEPS, `step ${step}`);
    return PROGRESS_DONE_TEXT;
  }
}

/** Every bench tool, always registered. */
export const BENCH_TOOLS: Type[] = [EchoTool, ValidateTool, BenchActionTool, ConfirmTool, ProgressTool];

/** `count` generated plain tools (the `tools/list` workload), built by applying the decorator as a function. */
export function fillerTools(count: number): Type[] {
  return fillerToolDefinitions(count).map((definition) => {
    const tool = class implements McpPlainTool {
      run(args: { id: string }): string {
        return args.id;
      }
    };
    Object.defineProperty(tool, 'name', { value: `Filler_${definition.name}` }); // a distinct provider name each
    McpTool(definition)(tool);
    return tool;
  });
}

/**
 * `toolCount` generated action tools of `actionsEach` actions each (the module-init workload): each action with a
 * small schema (an id, a name, an email, a limit with a default).
 */
export function generatedActionTools(toolCount: number, actionsEach: number): Type[] {
  return Array.from({ length: toolCount }, (_, t) => {
    const tool = class {};
    Object.defineProperty(tool, 'name', { value: `Generated_${t}_Tool` });
    for (let a = 0; a < actionsEach; a++) {
      const name = `action_${a}`;
      // Each action its own function: the action metadata is stored on the method itself.
      Object.defineProperty(tool.prototype, name, { value: (data: unknown) => data, writable: true, configurable: true });
      McpAction({
        description: `Action ${a} of generated tool ${t}`,
        properties: {
          id: { type: 'integer', minimum: 1 },
          name: { type: 'string', minLength: 1, maxLength: 100 },
          email: { type: 'string', format: 'email' },
          limit: { type: 'integer', minimum: 1, maximum: 100 },
        },
        required: ['id'],
        defaults: { limit: 10 },
      })(tool.prototype, name, Object.getOwnPropertyDescriptor(tool.prototype, name)!);
    }
    McpTool({ name: `generated_${t}`, description: `Generated action tool ${t}.` })(tool);
    return tool;
  });
}
