import { describe, expect, it } from '@jest/globals';

import type { McpMethodHandler, MethodCall } from '../../lib/methods/method-handler.interface.js';
import { MethodRouter } from '../../lib/methods/method-router.js';
import { RequestsUnderWay } from '../../lib/methods/requests-under-way.js';
import type { McpResolvedOptions } from '../../lib/options/mcp-module-options.interface.js';
import { resolveOptions } from '../../lib/options/resolve-options.js';
import { LegacyProtocolSchema } from '../../lib/protocol/legacy-schema.js';
import { ProtocolSchema } from '../../lib/protocol/protocol-schema.js';
import { TasksProtocolSchema } from '../../lib/tasks/tasks-schema.js';
import { rpc } from '../support/mcp-client.js';

const inputRequired = { resultType: 'input_required', requestState: 'v1.x.y' };
const handler = (method: string): McpMethodHandler => ({ method, served: () => true, handle: async () => ({ ...inputRequired }) }) as unknown as McpMethodHandler;

/** A router whose tools/call handler answers input-required. */
async function router(): Promise<MethodRouter> {
  const options: McpResolvedOptions = resolveOptions({ serverInfo: { name: 's', version: '1' } }, 'mcp');
  const h = (method: string, eras: string[]) => ({ ...handler(method), eras }) as never;
  return new MethodRouter(
    options,
    await ProtocolSchema.vendored(),
    new LegacyProtocolSchema(),
    new TasksProtocolSchema(),
    [h('server/discover', ['modern']), h('tools/list', ['modern']), h('tools/call', ['modern'])],
    new RequestsUnderWay(options),
  );
}

const call = (method: string, params: Record<string, unknown> = {}): Omit<MethodCall, 'params'> => {
  const message = rpc(method, params);
  return { record: { message, method, id: message.id as number, kind: 'request' } } as unknown as Omit<MethodCall, 'params'>;
};

describe('MethodRouter: an input-required result', () => {
  it('leaves without caching hints, with the server identity', async () => {
    const result = await (await router()).route(call('tools/call', { name: 'x' }));
    expect(result).toMatchObject(inputRequired);
    expect(result.ttlMs).toBeUndefined();
    expect(result._meta).toEqual({ 'io.modelcontextprotocol/serverInfo': { name: 's', version: '1' } });
  });
});
