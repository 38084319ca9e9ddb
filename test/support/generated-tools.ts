import { McpTool } from '../../lib/index.js';

/** The name of the i-th generated tool: `t000`, `t001`, … (name order is creation order). */
export const generatedToolName = (i: number): string => `t${String(i).padStart(3, '0')}`;

/** `count` plain tools with no arguments, each answering `ok`, named by {@link generatedToolName}: a long tool list. */
export function generatedTools(count: number): (new () => object)[] {
  return Array.from({ length: count }, (_, i) => {
    const tool = class {
      run() {
        return 'ok';
      }
    };
    McpTool({ name: generatedToolName(i), description: 'A generated tool.', inputSchema: { type: 'object', properties: {} } })(tool);
    return tool;
  });
}
