import { Inject } from '@nestjs/common';

import { McpEventBus, McpTool, type McpPlainTool } from '../../lib/index.js';

const NO_ARGS = { type: 'object', properties: {} } as const;

/**
 * The suite's list-change hooks: each publishes a change on the event bus, so open listen streams that asked for
 * it get the notification. The lists themselves never change (the suite wants three equal tools/list answers).
 */
@McpTool({ name: 'test_trigger_tool_change', description: 'Announces a tool-list change to open listen streams.', inputSchema: NO_ARGS })
export class TriggerToolChangeTool implements McpPlainTool {
  constructor(@Inject(McpEventBus) private readonly bus: McpEventBus) {}

  async run() {
    await this.bus.publish({ kind: 'toolsListChanged' });
    return 'Tool-list change announced.';
  }
}

@McpTool({ name: 'test_trigger_prompt_change', description: 'Announces a prompt-list change to open listen streams.', inputSchema: NO_ARGS })
export class TriggerPromptChangeTool implements McpPlainTool {
  constructor(@Inject(McpEventBus) private readonly bus: McpEventBus) {}

  async run() {
    await this.bus.publish({ kind: 'promptsListChanged' });
    return 'Prompt-list change announced.';
  }
}

/** The subscription hooks of the fixture, in one list for the module. */
export const FIXTURE_SUBSCRIPTIONS = [TriggerToolChangeTool, TriggerPromptChangeTool];
