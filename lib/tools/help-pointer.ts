import { HELP_TOOL_NAME } from '../mcp.constants.js';

/**
 * A help pointer: the legal `help` call, under `"help"` in every tool-dialect refusal, that explains what was
 * refused, e.g. `{"tool": "help", "arguments": {"tool": "tasks", "action": "create"}}`.
 * @publicApi
 */
export interface HelpPointer {
  readonly tool: typeof HELP_TOOL_NAME;
  readonly arguments: { readonly tool?: string; readonly action?: string };
}

/**
 * The one help-pointer builder, so gate and help refusals cannot drift apart. Callers pass only wired-in targets:
 * an unknown tool or action is pointed one level up.
 * Proven by: test/tools/help-pointer.spec.ts (every pointer passes help's own argument gates).
 */
export function helpPointer(tool?: string, action?: string): HelpPointer {
  if (tool === undefined) return { tool: HELP_TOOL_NAME, arguments: {} };
  return { tool: HELP_TOOL_NAME, arguments: action === undefined ? { tool } : { tool, action } };
}
