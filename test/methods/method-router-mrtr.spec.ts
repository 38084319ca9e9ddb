import { describe, expect, it } from '@jest/globals';
import type { McpResolvedOptions } from '../../lib/mcp-module-options.interface.js';
import type { McpMethodHandler, MethodCall } from '../../lib/methods/method-handler.interface.js';
import { MethodRouter } from '../../lib/methods/method-router.js';
import { resolveOptions } from '../../lib/options/resolve-options.js';
import { rpc } from '../support/mcp-client.js';

const inputRequired = { resultType: 'input_required', requestState: 'v1.x.y' };
const handler = (method: string): McpMethodHandler => ({ method, served: () => true, handle: async () => ({ ...inputRequired }) }) as unknown as McpMethodHandler;

/** A router whose handlers all answer input-required, as a buggy handler might. */
function router(): MethodRouter {
  const options: McpResolvedOptions = resolveOptions({ serverInfo: { name: 's', version: '1' } }, 'mcp');
  return new MethodRouter(options, handler('server/discover') as never, handler('tools/list') as never, handler('tools/call') as never);
}

const call = (method: string, params: Record<string, unknown> = {}): Omit<MethodCall, 'params'> => {
  const message = rpc(method, params);
  return { state: { message, method, id: message.id as number, kind: 'request' } } as unknown as Omit<MethodCall, 'params'>;
};

describe('MethodRouter: input-required results leave only from tools/call, resources/read and prompts/get', () => {
  it.each(['server/discover', 'tools/list'])('refuses an input-required result from %s as a fault', async (method) => {
    await expect(router().route(call(method))).rejects.toThrow(`${method} answered with an input-required result`);
  });

  it('lets tools/call answer input-required, without caching hints', async () => {
    const result = await router().route(call('tools/call', { name: 'x' }));
    expect(result).toMatchObject(inputRequired);
    expect(result!.ttlMs).toBeUndefined();
    expect(result!._meta).toEqual({ 'io.modelcontextprotocol/serverInfo': { name: 's', version: '1' } });
  });
});
