import { describe, expect, it } from '@jest/globals';

import { post, rpc } from '../support/mcp-client.js';
import { createTestApp } from '../support/test-app.js';
import { callTool } from '../support/tool-call.js';
import { EchoTool, TaskStore, TasksTool } from '../support/tools.js';

describe('tool discovery', () => {
  it('wires in a tool registered as a value or a factory provider, once however many tokens name its instance', async () => {
    const echo = new EchoTool();
    const app = await createTestApp({
      providers: [
        TaskStore,
        { provide: 'ECHO', useValue: echo },
        { provide: 'ECHO_AGAIN', useValue: echo },
        { provide: 'TASKS', useFactory: (store: TaskStore) => new TasksTool(store), inject: [TaskStore] },
        { provide: 'TASKS_ALIAS', useExisting: 'TASKS' },
      ],
    });
    try {
      const res = await post(app.server, rpc('tools/list'));
      expect(res.body.result.tools.map((tool: { name: string }) => tool.name)).toEqual(['echo', 'help', 'tasks']);
      expect((await callTool(app.server, 'echo', { text: 'hi' })).result.content).toEqual([{ type: 'text', text: 'hi' }]);
      expect((await callTool(app.server, 'tasks', { action: 'create', data: { name: 'Built by a factory', project: 'p' } })).body.task.name).toBe('Built by a factory');
    } finally {
      await app.close();
    }
  });
});
