import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Inject, Injectable, Scope } from '@nestjs/common';
import { ContextIdFactory, ModuleRef, REQUEST } from '@nestjs/core';

import { McpTool, type McpContext, type McpPlainTool } from '../../lib/index.js';
import { legacyHeaders, legacyPost } from '../support/legacy-client.js';
import { callTool } from '../support/mrtr-client.js';
import { createTestApp, type TestApp } from '../support/test-app.js';

let built = 0;

/** A request-scoped service, as hosts write them: one instance per HTTP request, reading that request. */
@Injectable({ scope: Scope.REQUEST })
class TenantService {
  readonly instance = ++built;
  constructor(@Inject(REQUEST) private readonly request: { headers: Record<string, string | undefined> }) {}

  tenant(): string {
    return this.request.headers['x-tenant'] ?? 'none';
  }
}

/** A singleton tool reaching the request-scoped service the way docs/tools.md shows. */
@McpTool({ name: 'whoami', description: 'Names the tenant of the call.', inputSchema: { type: 'object' } })
class WhoAmITool implements McpPlainTool {
  constructor(private readonly moduleRef: ModuleRef) {}

  async run(_args: object, ctx: McpContext) {
    const contextId = ContextIdFactory.getByRequest(ctx.request);
    this.moduleRef.registerRequestByContextId(ctx.request, contextId);
    const first = await this.moduleRef.resolve(TenantService, contextId, { strict: false });
    const again = await this.moduleRef.resolve(TenantService, contextId, { strict: false });
    return { tenant: first.tenant(), instance: first.instance, sameWithinCall: first === again };
  }
}

/** What `whoami` answered (a plain tool's object result arrives as JSON text). */
const seen = (body: Record<string, any>) => JSON.parse(body.result.content[0].text) as { tenant: string; instance: number; sameWithinCall: boolean };

describe('a request-scoped service reached from a singleton tool (the docs/tools.md recipe)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ providers: [WhoAmITool, TenantService] });
  });
  afterAll(() => t.close());

  it('builds one instance per HTTP request, bound to that request', async () => {
    const acme = seen((await callTool(t.server, 'whoami', {}, { headers: { 'x-tenant': 'acme' } })).body);
    const globex = seen((await callTool(t.server, 'whoami', {}, { headers: { 'x-tenant': 'globex' } })).body);
    expect(acme).toMatchObject({ tenant: 'acme', sameWithinCall: true });
    expect(globex).toMatchObject({ tenant: 'globex', sameWithinCall: true });
    expect(globex.instance).not.toBe(acme.instance);
  });

  it('works the same for a legacy client', async () => {
    const answer = await legacyPost(
      t.server,
      { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'whoami', arguments: {} } },
      legacyHeaders('2025-11-25', { 'x-tenant': 'initech' }),
    );
    expect(seen(answer.messages[0]!)).toMatchObject({ tenant: 'initech', sameWithinCall: true });
  });
});
