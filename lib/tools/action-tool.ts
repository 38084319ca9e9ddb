import { McpConfigurationError } from '../errors/mcp-configuration.error.js';
import type { EveryField } from '../util/every-field.js';
import { validateActionSchema, type ValidatedAction } from './action-schema.js';
import { applyDefaults } from './defaults.js';
import { runDispatchGates, type DataTarget, type GatedCall } from './dispatch-gates.js';
import { handlerResult, readActionContext } from './handler-result.js';
import { helpPointer } from './help-pointer.js';
import { actionSummaries, actionToolInputSchema, inputSchemaDigest, renderAction, sortedByName } from './input-schema.js';
import { readTaskMode, type TaskDeclaration, type TaskMode } from './task-mode.js';
import { helpHeading, toolDefinition } from './tool-definition.js';
import { readHooks, type ToolBuildKit } from './tool-hooks.js';
import { TOOL_HOOK_NAMES, type McpToolOptions, type ToolCallResult } from './tool.interfaces.js';
import type { ToolRun, WiredTool } from './wired-tool.js';

/** One `@McpAction` method as the explorer found it: the action's name, the method's name, its options. */
export interface DeclaredAction {
  /** The action's name: the decorator's `name`, else the method's name. */
  readonly name: unknown;
  /** The decorated method's name on the tool class. */
  readonly method: string;
  /** The action schema the decorator declared (its `name` and task mode taken out). */
  readonly schema: unknown;
  /** The task mode the decorator declared. */
  readonly task: TaskDeclaration;
}

interface WiredAction extends ValidatedAction {
  readonly method: string;
  readonly taskMode: TaskMode | undefined;
}

/**
 * Builds an action tool at module init: checks its declaration and compiles every schema once. Faults its
 * handler throws propagate to the dispatch service.
 */
export function buildActionTool(options: McpToolOptions, instance: object, declared: readonly DeclaredAction[], kit: ToolBuildKit): WiredTool {
  const tool = options.name;
  const where = `tool "${tool}"`;
  if (declared.length === 0) throw new McpConfigurationError(where, 'declares neither an inputSchema (a plain tool) nor any @McpAction method (an action tool)');
  const toolTaskMode = readTaskMode(options, where);
  const actions: WiredAction[] = declared.map((d) => {
    if ((TOOL_HOOK_NAMES as readonly string[]).includes(d.method))
      throw new McpConfigurationError(
        `${where}, method "${d.method}"`,
        `@McpAction cannot decorate ${d.method}(), the name of an optional hook; rename the method and give the action its name with @McpAction({ name: ... })`,
      );
    const validated = validateActionSchema(kit.compiler, tool, d.name, d.schema);
    return {
      name: validated.name,
      schema: validated.schema,
      closedProperties: validated.closedProperties,
      keys: validated.keys,
      values: validated.values,
      method: d.method,
      taskMode: readTaskMode(d.task, `${where}, action "${validated.name}"`, toolTaskMode),
    } satisfies EveryField<WiredAction>;
  });
  const seen = new Map<string, string>();
  for (const a of actions) {
    const other = seen.get(a.name);
    if (other !== undefined) throw new McpConfigurationError(`${where}, action "${a.name}"`, `is declared twice, by methods ${other}() and ${a.method}()`);
    seen.set(a.name, a.method);
  }
  const output = options.outputSchema ? kit.compiler.compileOutput(options.outputSchema, `${where}, outputSchema`) : undefined;
  const hooks = readHooks(tool, instance, output, kit.resultShape);
  const sorted = sortedByName(actions);
  const digests = new Map(sorted.map((a) => [a.name, inputSchemaDigest(a)]));

  const targets = new Map<string, DataTarget & { readonly method: string; readonly defaults: Readonly<Record<string, unknown>> }>(
    sorted.map((a) => [
      a.name,
      {
        action: a.name,
        subject: `The data of action "${a.name}" of tool "${tool}"`,
        required: a.schema.required,
        requiredOneOf: a.schema.requiredOneOf,
        keys: a.keys,
        values: a.values,
        digest: digests.get(a.name)!,
        pointer: helpPointer(tool, a.name),
        method: a.method,
        defaults: a.schema.defaults,
      },
    ]),
  );
  const toolPointer = helpPointer(tool);
  const heading = helpHeading(options);
  const rendered = new Map(sorted.map((a) => [a.name, renderAction(a, digests.get(a.name)!)]));
  const taskModes = new Map(actions.filter((a) => a.taskMode !== undefined).map((a) => [a.name, a.taskMode!]));

  return {
    name: tool,
    definition: toolDefinition(options, actionToolInputSchema(tool, actions)),
    headerAnnotations: [],
    help: {
      index: { tool, description: options.description, actions: actionSummaries(actions) },
      full: Object.assign(
        {},
        heading,
        options.annotations !== undefined && { annotations: options.annotations },
        options.outputSchema !== undefined && { output_schema: options.outputSchema },
        { actions: Object.fromEntries(rendered) },
      ) as Record<string, unknown>,
      actions: new Map(sorted.map((a) => [a.name, { tool, action: a.name, ...rendered.get(a.name)! }])),
      actionContext: async (action, ctx) => (hooks.actionContext ? readActionContext(tool, await hooks.actionContext(action, ctx)) : undefined),
    },
    runsTasks: taskModes.size > 0,
    taskMode: (action) => (typeof action === 'string' ? taskModes.get(action) : undefined),
    gate: (args, numbersInRange) => runDispatchGates(tool, args, targets, toolPointer, numbersInRange),
    async handle(call: GatedCall, run: ToolRun): Promise<ToolCallResult> {
      const target = targets.get(call.action!)!;
      const ctx = run.contextFor(target.action);
      const method = (instance as Record<string, (data: unknown, ctx: unknown) => unknown>)[target.method]!;
      return handlerResult(hooks, await method.call(instance, applyDefaults(call.data, target.defaults), ctx), target.action, ctx, run);
    },
  };
}
