import { HELP_TOOL_NAME } from '../mcp.constants.js';

/**
 * A help pointer: the help call that explains the surface a refusal just refused, carried under `"help"` in
 * every tool-dialect refusal. It is a legal call as it stands (the `help` tool's name and arguments its input
 * schema accepts), never prose:
 *
 * ```json
 * { "tool": "help", "arguments": { "tool": "tasks", "action": "create" } }
 * ```
 * @publicApi
 */
export interface HelpPointer {
  readonly tool: typeof HELP_TOOL_NAME;
  readonly arguments: { readonly tool?: string; readonly action?: string };
}

/**
 * The one help-pointer builder. Rule it owns: the pointer's format lives here and nowhere else, so the dispatch
 * gates and help's own refusals cannot drift into two dialects. It names only wired-in targets: a caller's
 * unknown tool or action never reaches a pointer (the refusal points one level up instead).
 * Proven by: test/tools/help-pointer.spec.ts (every pointer passes help's own argument gates).
 */
export function helpPointer(tool?: string, action?: string): HelpPointer {
  if (tool === undefined) return { tool: HELP_TOOL_NAME, arguments: {} };
  return { tool: HELP_TOOL_NAME, arguments: action === undefined ? { tool } : { tool, action } };
}
