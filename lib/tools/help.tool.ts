import { HELP_TOOL_NAME } from '../mcp.constants.js';
import { publish } from '../telemetry/channels.js';
import { bounded, quoted } from '../util/bounded.js';
import { didYouMean } from '../util/near-miss.js';
import { checkArguments, unknownActionAnswer, type ArgumentVocabulary, type GatedCall, type JsonType } from './dispatch-gates.js';
import { helpPointer } from './help-pointer.js';
import { toolDefinition } from './tool-definition.js';
import { errorResult, textResult } from './tool-result.js';
import type { ToolCallResult } from './tool.interfaces.js';
import type { ToolRegistry } from './tool.registry.js';
import type { ToolRun, WiredTool } from './wired-tool.js';

/** The help tool's description, as tools/list publishes it. */
const HELP_DESCRIPTION =
  "Explains this server's tools. No arguments: an index of every tool and its actions. " +
  '{tool}: that tool complete (schemas, notes, related actions, examples). ' +
  '{tool, action}: one action complete, with its runtime context.';

/** The help tool's hand-written input schema; its argument types are read from here, never restated. */
export const HELP_INPUT_SCHEMA = {
  type: 'object',
  properties: {
    tool: { type: 'string', description: 'The tool to explain.' },
    action: { type: 'string', description: 'One action of that tool to explain (requires tool).' },
  },
  additionalProperties: false,
} as const;

const HELP_ARGUMENTS: ArgumentVocabulary = Object.fromEntries(Object.entries(HELP_INPUT_SCHEMA.properties).map(([name, schema]) => [name, schema.type as JsonType]));

/**
 * The framework's help tool, wired in under the reserved name `help` in every mount that has a tool of its own (a
 * mount with none lists no tool and advertises no `tools` capability). Its arguments meet the arguments-level
 * gates; an unknown target is refused with the valid names and a pointer one level up, never answered more
 * broadly. See docs/tools.md ("Help").
 * Proven by: test/e2e/help.e2e-spec.ts
 */
export function buildHelpTool(registry: ToolRegistry, mount: string): WiredTool {
  const definition = toolDefinition({ name: HELP_TOOL_NAME, description: HELP_DESCRIPTION, annotations: { readOnlyHint: true, openWorldHint: false } }, HELP_INPUT_SCHEMA);
  /** The valid tools as a refusal lists them: the first 50 (`namesListed`), and how many there are when that cuts the list. */
  const validTools = () => {
    const { available, availableCount } = registry.namesListed();
    return { valid_tools: available, ...(availableCount > available.length && { valid_tools_count: availableCount }) };
  };

  const answer = async (args: Record<string, unknown>, run: ToolRun): Promise<ToolCallResult> => {
    const { tool: toolName, action } = args as { tool?: string; action?: string };
    if (toolName === undefined && action === undefined) return textResult(JSON.stringify({ tools: registry.list().map((t) => t.help.index) }), false);
    if (toolName === undefined)
      return errorResult({
        error: 'missing_tool',
        message: `Help on an action needs the tool it belongs to: call help with both "tool" and "action". Valid tools: ${registry.listedNames()}.`,
        ...validTools(),
        help: helpPointer(),
      });
    const target = registry.get(toolName);
    if (!target)
      return errorResult({
        error: 'unknown_tool',
        message: `Unknown tool: ${quoted(toolName, 66)}${didYouMean(registry.nearMissOf(toolName))}. Valid tools: ${registry.listedNames()}.`,
        tool: bounded(toolName, 64),
        ...validTools(),
        help: helpPointer(),
      });
    if (action === undefined) return textResult(JSON.stringify(target.help.full), false);
    const rendered = target.help.actions.get(action);
    if (!rendered) return errorResult({ error: 'unknown_action', ...unknownActionAnswer(target.name, action, target.help.actions, helpPointer(target.name)) });
    const context = await target.help.actionContext(action, run.contextFor(action, target.name));
    return textResult(JSON.stringify(context ? Object.assign({}, rendered, { context }) : rendered), false);
  };

  return {
    name: HELP_TOOL_NAME,
    definition,
    headerAnnotations: [],
    help: {
      index: { tool: HELP_TOOL_NAME, description: HELP_DESCRIPTION },
      full: { tool: HELP_TOOL_NAME, description: HELP_DESCRIPTION, input_schema: HELP_INPUT_SCHEMA },
      actions: new Map(),
      actionContext: async () => undefined,
    },
    runsTasks: false,
    taskMode: () => undefined,
    gate(args) {
      const gated = checkArguments(HELP_TOOL_NAME, args, HELP_ARGUMENTS, helpPointer());
      if ('refusal' in gated) helpCalled(mount, args, false);
      return gated;
    },
    async handle(call: GatedCall, run: ToolRun): Promise<ToolCallResult> {
      const result = await answer(call.data, run);
      const found = result.isError !== true;
      if (!found) run.errorKind = 'dispatch';
      helpCalled(mount, call.data, found);
      return result;
    },
  };
}

/** Every answered help call emits one `mcp:help:called`, its refusals included. */
function helpCalled(mount: string, args: Record<string, unknown>, found: boolean): void {
  publish('mcp:help:called', () => ({
    mount,
    ...(typeof args.tool === 'string' && { tool: bounded(args.tool, 64) }),
    ...(typeof args.action === 'string' && { action: bounded(args.action, 64) }),
    found,
  }));
}
