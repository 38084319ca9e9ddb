import { describe, expect, it } from '@jest/globals';
import { Controller, Get, Injectable, SetMetadata, UnauthorizedException, type CanActivate, type ExecutionContext } from '@nestjs/common';
import { APP_GUARD, Reflector } from '@nestjs/core';
import { DocumentBuilder, SwaggerModule } from '@nestjs/swagger';
import request from 'supertest';

import { McpModule, isMountRoute } from '../../lib/index.js';
import { EchoTool } from '../support/fixture-tools.js';
import { initialize, legacyHeaders, legacyPost } from '../support/legacy-client.js';
import { post, rpc } from '../support/mcp-client.js';
import { useTestApp } from '../support/suite-app.js';

@Controller('cats')
class CatsController {
  @Get()
  list(): string[] {
    return ['Tom'];
  }

  @Get('public')
  @Public()
  open(): string {
    return 'open';
  }
}

/** The Nest docs' escape hatch from a global auth guard. */
function Public(): MethodDecorator & ClassDecorator {
  return SetMetadata('isPublic', true);
}

/**
 * A global guard as the Nest authentication recipe writes it (a JWT guard, here refusing every caller without a
 * token), letting public routes through, and MCP callers too: the mount authenticates them itself.
 */
@Injectable()
class GlobalAuthGuard implements CanActivate {
  constructor(private readonly reflector: Reflector) {}

  canActivate(context: ExecutionContext): boolean {
    if (isMountRoute(context)) return true;
    if (this.reflector.getAllAndOverride<boolean>('isPublic', [context.getHandler(), context.getClass()])) return true;
    throw new UnauthorizedException();
  }
}

describe('a host with a global auth guard that lets the mount through by isMountRoute (the @Public() escape hatch)', () => {
  const app = useTestApp({
    providers: [EchoTool, { provide: APP_GUARD, useClass: GlobalAuthGuard }],
    controllers: [CatsController],
    configure: (nest) => nest.setGlobalPrefix('api'),
  });

  it('serves MCP callers on both eras, and the mount’s 405, however the mount path is prefixed', async () => {
    const call = await post(app().server, rpc('tools/call', { name: 'echo', arguments: { text: 'through' } }), {}, '/api/mcp');
    expect(call.status).toBe(200);
    expect(call.body.result.content).toEqual([{ type: 'text', text: 'through' }]);
    const legacy = await fetch(`http://127.0.0.1:${(app().server.address() as { port: number }).port}/api/mcp`, {
      method: 'POST',
      headers: legacyHeaders(null),
      body: JSON.stringify(initialize()),
    });
    expect(legacy.status).toBe(200);
    expect((await request(app().server).get('/api/mcp')).status).toBe(405);
  });

  it('still guards the host’s own routes, and lets its public ones through', async () => {
    expect((await request(app().server).get('/api/cats')).status).toBe(401);
    expect((await request(app().server).get('/api/cats/public')).status).toBe(200);
  });
});

describe('a host that publishes an OpenAPI document (@nestjs/swagger, the Nest docs recipe)', () => {
  const app = useTestApp({
    providers: [EchoTool],
    controllers: [CatsController],
    imports: [McpModule.forRoot({ path: 'admin/mcp', serverInfo: { name: 'admin', version: '1.0.0' }, telemetryLogger: false })],
  });

  it('leaves every mount out of it (a JSON-RPC endpoint is no REST resource), and the host’s routes in', async () => {
    const document = SwaggerModule.createDocument(app().app, new DocumentBuilder().setTitle('cats').build());
    expect(Object.keys(document.paths).sort()).toEqual(['/cats', '/cats/public']);
  });

  it('still serves the mounts', async () => {
    expect((await post(app().server, rpc('tools/list'))).status).toBe(200);
    expect((await legacyPost(app().server, initialize(), legacyHeaders(null))).status).toBe(200);
  });
});
