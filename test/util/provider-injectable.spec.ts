import type { Server } from 'node:http';

import { describe, expect, it } from '@jest/globals';
import { Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';

import { McpModule, McpPrompt, McpResource, McpTool } from '../../lib/index.js';
import { markedClasses } from '../../lib/util/provider-injectable.js';
import { collectGarbage } from '../support/collect-garbage.js';
import { post, rpc } from '../support/mcp-client.js';

/** Tool classes made at run time, as a factory module would make them: each marked by `@McpTool`. */
function madeTools(count: number): (new () => unknown)[] {
  return Array.from({ length: count }, (_, n) => {
    class Made {
      run() {
        return 'x';
      }
    }
    McpTool({ name: `made_${n}`, description: 'Made at run time.', inputSchema: { type: 'object' } })(Made);
    return Made;
  });
}

describe('the classes MCP decorators marked (for the empty-mount warning)', () => {
  it('lists the live ones in the order they were first marked, each once', () => {
    class First {
      read() {
        return 'x';
      }
    }
    class Second {
      get() {
        return 'x';
      }
    }
    McpResource({ uri: 'app://first', name: 'first' })(First);
    McpPrompt({ name: 'second', description: 'Second.' })(Second);
    McpPrompt({ name: 'first', description: 'First again.' })(First); // a class marked twice is listed once
    const listed = [...markedClasses()];
    expect(listed.slice(-2)).toEqual([First, Second]);
    expect(listed.filter((marked) => marked === First)).toHaveLength(1);
  });

  it('does not keep a class alive that nothing else holds', async () => {
    const made = madeTools(20).map((tool) => new WeakRef(tool));
    await collectGarbage();
    // A strong list of every marked class kept all 20, and their metadata, for the life of the process.
    expect(made.filter((tool) => tool.deref() !== undefined)).toEqual([]);
  });

  it('lets the tool classes of an application go once it closed', async () => {
    // NestFactory, not the testing module: @nestjs/testing's Test keeps every prototype it scanned.
    const served = async () => {
      const tools = madeTools(5);
      class HostModule {}
      Module({ imports: [McpModule.forRoot({ serverInfo: { name: 'made', version: '1.0.0' }, telemetryLogger: false })], providers: tools })(HostModule);
      const app = await NestFactory.create(HostModule, { bodyParser: false, logger: false, forceCloseConnections: true });
      await app.listen(0, '127.0.0.1');
      const listed = await post(app.getHttpServer() as Server, rpc('tools/list'));
      await app.close();
      return { names: (listed.body.result.tools as { name: string }[]).map((tool) => tool.name), made: tools.map((tool) => new WeakRef(tool)) };
    };
    const { names, made } = await served();
    expect(names).toEqual(expect.arrayContaining(['made_0', 'made_4']));
    await collectGarbage();
    expect(made.filter((tool) => tool.deref() !== undefined)).toEqual([]);
  });
});
