import { afterEach, beforeEach, describe, expect, it, jest } from '@jest/globals';
import {
  Catch,
  Controller,
  Get,
  Injectable,
  Logger,
  Module,
  UseFilters,
  UseGuards,
  UseInterceptors,
  UsePipes,
  type CallHandler,
  type CanActivate,
  type ExceptionFilter,
  type NestInterceptor,
  type PipeTransform,
} from '@nestjs/common';
import request from 'supertest';

import { McpAction, McpModule, McpPrompt, McpResource, McpResourceTemplate, McpTool, type McpPlainTool } from '../../lib/index.js';
import { EchoTool } from '../support/fixture-tools.js';
import { post, rpc } from '../support/mcp-client.js';
import { createTestApp } from '../support/test-app.js';

// Nest's @UseGuards and the like apply to a controller's routes; a tool, resource or prompt is called by the mount,
// so they never run for it. A Nest user who writes one expects otherwise: the first mount warns at startup.

@Injectable()
class DenyGuard implements CanActivate {
  static runs = 0;
  canActivate(): boolean {
    DenyGuard.runs++;
    return false;
  }
}

@Injectable()
class PassInterceptor implements NestInterceptor {
  intercept(_context: unknown, next: CallHandler) {
    return next.handle();
  }
}

class NoopPipe implements PipeTransform {
  transform(value: unknown) {
    return value;
  }
}

@UseGuards(DenyGuard)
@UseInterceptors(PassInterceptor)
@McpTool({ name: 'vault', description: 'Reads the vault.' })
class VaultTool {
  @UseGuards(DenyGuard)
  @McpAction({ description: 'Read it', properties: {} })
  read() {
    return 'opened';
  }
}

/** A subclass inherits the enhancers of its base's methods, as Nest would read them. */
class GuardedBase {
  @UsePipes(NoopPipe)
  run() {
    return 'base';
  }
}

@McpTool({ name: 'derived', description: 'Runs the base.', inputSchema: { type: 'object' } })
class DerivedTool extends GuardedBase implements McpPlainTool {}

@UseFilters()
@McpResource({ uri: 'vault://index', name: 'index' })
class IndexResource {
  read() {
    return 'index';
  }
}

@McpPrompt({ name: 'open_vault', description: 'Opens the vault.' })
class OpenVaultPrompt {
  @UseGuards(DenyGuard)
  get() {
    return 'Open it.';
  }
}

/** A controller that is a tool too: its route's guard runs for the route, never for the mount's calls. */
@Controller('vault-route')
@McpTool({ name: 'vault_route', description: 'Reads the vault, by a route too.' })
class VaultRoute {
  @Get('read')
  @UseGuards(DenyGuard)
  @McpAction({ description: 'Read it', properties: {} })
  read() {
    return 'opened';
  }
}

@Catch()
class AnyFilter implements ExceptionFilter {
  catch() {}
}

@McpResourceTemplate({ uriTemplate: 'vault://notes/{title}', name: 'note' })
class NoteResource {
  @UseFilters(AnyFilter)
  read() {
    return 'note';
  }
}

/** An override is read by its own decorators, as Nest reads a route's: the base method's guard is not on it. */
class GuardedRun {
  @UseGuards(DenyGuard)
  run(): unknown {
    return 'base';
  }
}

@McpTool({ name: 'overriding', description: 'Runs its own run.', inputSchema: { type: 'object' } })
class OverridingTool extends GuardedRun implements McpPlainTool {
  /** A static method is no route, whatever its name. */
  @UseGuards(DenyGuard)
  static run() {
    return 'static';
  }

  /** A getter is never read by the scan (this one throws if it is). */
  get label(): string {
    throw new Error('the scan read a getter');
  }

  override run() {
    return 'override';
  }
}

describe('route enhancers on a tool, resource or prompt class', () => {
  let warn: ReturnType<typeof jest.spyOn>;
  beforeEach(() => {
    warn = jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
  });
  afterEach(() => warn.mockRestore());

  const enhancerWarnings = (): string[] =>
    warn.mock.calls.map((call: unknown[]) => call[0]).filter((message: unknown): message is string => typeof message === 'string' && message.includes('never run'));

  it("do not run for its calls: the guard is not asked, and the call is answered (Nest's own behaviour, unchanged)", async () => {
    const t = await createTestApp({ providers: [VaultTool, DenyGuard] });
    try {
      DenyGuard.runs = 0;
      const res = await post(t.server, rpc('tools/call', { name: 'vault', arguments: { action: 'read', data: {} } }));
      expect(res.body.result.content).toEqual([{ type: 'text', text: 'opened' }]);
      expect(DenyGuard.runs).toBe(0);
    } finally {
      await t.close();
    }
  });

  it('are warned of at startup, once per class, naming each decorator and where it sits', async () => {
    const t = await createTestApp({ providers: [VaultTool, DerivedTool, IndexResource, OpenVaultPrompt, EchoTool, DenyGuard] });
    await t.close();
    expect(enhancerWarnings().sort()).toEqual([
      "class DerivedTool: @UsePipes (on run()) never runs for the mount's calls. Nest applies them to a controller's routes, and the mount calls a tool, " +
        "resource or prompt itself. Check the caller in the handler (ctx.auth, ctx.request) or in the mount's auth provider (docs/tools.md).",
      expect.stringMatching(/^class OpenVaultPrompt: @UseGuards \(on get\(\)\) never runs for the mount's calls\./),
      expect.stringMatching(/^class VaultTool: @UseGuards \(on the class, on read\(\)\), @UseInterceptors \(on the class\) never run for the mount's calls\./),
    ]);
  });

  it("are warned of on a class that is a controller too, as not running for the mount's calls (its route's guard runs)", async () => {
    const t = await createTestApp({ providers: [VaultRoute, DenyGuard], controllers: [VaultRoute] });
    try {
      DenyGuard.runs = 0;
      expect((await request(t.server).get('/vault-route/read')).status).toBe(403);
      expect(DenyGuard.runs).toBe(1);
      const res = await post(t.server, rpc('tools/call', { name: 'vault_route', arguments: { action: 'read', data: {} } }));
      expect(res.body.result.content).toEqual([{ type: 'text', text: 'opened' }]);
      expect(DenyGuard.runs).toBe(1);
    } finally {
      await t.close();
    }
    expect(enhancerWarnings()).toEqual([expect.stringMatching(/^class VaultRoute: @UseGuards \(on read\(\)\) never runs for the mount's calls\. /)]);
  });

  it('are warned of once however many mounts serve the class', async () => {
    @Module({ imports: [McpModule.forRoot({ path: 'admin/mcp', serverInfo: { name: 'admin', version: '1.0.0' }, telemetryLogger: false, serves: [VaultTool] })] })
    class AdminModule {}
    const t = await createTestApp({ providers: [VaultTool], imports: [AdminModule], options: { serves: [VaultTool] } });
    try {
      for (const path of ['/mcp', '/admin/mcp'])
        expect((await post(t.server, rpc('tools/call', { name: 'vault', arguments: { action: 'read', data: {} } }), {}, path)).body.result.content).toEqual([
          { type: 'text', text: 'opened' },
        ]);
    } finally {
      await t.close();
    }
    expect(enhancerWarnings().filter((message) => message.startsWith('class VaultTool:'))).toHaveLength(1);
  });

  it('are warned of when the mount that comes first serves none of the classes', async () => {
    @Module({ imports: [McpModule.forRoot({ path: 'admin/mcp', serverInfo: { name: 'admin', version: '1.0.0' }, telemetryLogger: false, serves: [VaultTool] })] })
    class AdminModule {}
    @Module({ imports: [McpModule.forRoot({ path: 'empty/mcp', serverInfo: { name: 'empty', version: '1.0.0' }, telemetryLogger: false })] })
    class EmptyModule {}
    // Either mount may come first: both orders are booted.
    for (const spec of [
      { providers: [VaultTool], imports: [EmptyModule], options: { serves: [VaultTool] } },
      { providers: [VaultTool], imports: [AdminModule], options: {} },
    ]) {
      warn.mockClear();
      const t = await createTestApp(spec);
      await t.close();
      expect(enhancerWarnings().filter((message) => message.startsWith('class VaultTool:'))).toHaveLength(1);
    }
  });

  it('name @UseFilters holding a filter, on a resource template', async () => {
    const t = await createTestApp({ providers: [NoteResource] });
    await t.close();
    expect(enhancerWarnings()).toEqual([expect.stringMatching(/^class NoteResource: @UseFilters \(on read\(\)\) never runs for the mount's calls\./)]);
  });

  it("leave unwarned an override without enhancers of a guarded base method, the class's static methods and its getters", async () => {
    const t = await createTestApp({ providers: [OverridingTool, DenyGuard] });
    try {
      const res = await post(t.server, rpc('tools/call', { name: 'overriding', arguments: {} }));
      expect(res.body.result.content).toEqual([{ type: 'text', text: 'override' }]);
    } finally {
      await t.close();
    }
    expect(enhancerWarnings()).toEqual([]);
  });

  it('leave a class without any (an empty @UseFilters() included) unwarned', async () => {
    const t = await createTestApp({ providers: [EchoTool, IndexResource] });
    await t.close();
    expect(enhancerWarnings()).toEqual([]);
  });
});
