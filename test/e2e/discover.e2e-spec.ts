import { readFileSync, readdirSync } from 'node:fs';

import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';

import { ProtocolSchema } from '../../lib/protocol/protocol-schema.js';
import { EchoTool } from '../support/fixture-tools.js';
import { meta, post, rpc } from '../support/mcp-client.js';
import { createTestApp, type TestApp } from '../support/test-app.js';

const EXAMPLES = new URL('../fixtures/spec-examples/', import.meta.url);
const schema = await ProtocolSchema.vendored();

describe('server/discover', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({
      providers: [EchoTool],
      options: {
        serverInfo: {
          name: 'test-server',
          version: '1.0.0',
          title: 'Test',
          websiteUrl: 'https://example.com',
          icons: [{ src: 'https://example.com/i.png', mimeType: 'image/png', sizes: ['48x48'], theme: 'dark' }],
        },
        instructions: 'Use the tools wisely.\nSecond line stays.',
        cache: { ttlMs: 60000, cacheScope: 'public' },
      },
    });
  });
  afterAll(() => t.close());

  it.each(readdirSync(new URL('DiscoverRequest/', EXAMPLES)))('answers the official example %s with a schema-valid result', async (file) => {
    const example = JSON.parse(readFileSync(new URL(`DiscoverRequest/${file}`, EXAMPLES), 'utf8'));
    expect(schema.check('DiscoverRequest', example)).toEqual([]);
    const res = await post(t.server, example);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(schema.check('DiscoverResultResponse', res.body)).toEqual([]);
    expect(res.body.id).toBe(example.id);
  });

  it('lists the served versions, capabilities (tools, with help beside the one tool), instructions as written, caching hints and serverInfo in _meta', async () => {
    const res = await post(t.server, rpc('server/discover', {}, 'd1'));
    expect(res.status).toBe(200);
    expect(res.body.result).toEqual({
      resultType: 'complete',
      supportedVersions: ['2026-07-28'],
      capabilities: { tools: { listChanged: true }, logging: {} },
      instructions: 'Use the tools wisely.\nSecond line stays.',
      ttlMs: 60000,
      cacheScope: 'public',
      _meta: {
        'io.modelcontextprotocol/serverInfo': {
          name: 'test-server',
          version: '1.0.0',
          title: 'Test',
          websiteUrl: 'https://example.com',
          icons: [{ src: 'https://example.com/i.png', mimeType: 'image/png', sizes: ['48x48'], theme: 'dark' }],
        },
      },
    });
    expect(res.body.result.serverInfo).toBeUndefined();
  });

  it('answers 200 without clientInfo (the server never requires it)', async () => {
    const body = rpc('server/discover', { _meta: meta({ 'io.modelcontextprotocol/clientInfo': undefined }) });
    const res = await post(t.server, JSON.parse(JSON.stringify(body)));
    expect(res.status).toBe(200);
    expect(res.body.result.resultType).toBe('complete');
  });

  it('tolerates unknown client capability members', async () => {
    const body = rpc('server/discover', { _meta: meta({ 'io.modelcontextprotocol/clientCapabilities': { roots: { listChanged: true }, sampling: {}, elicitation: {} } }) });
    const res = await post(t.server, body);
    expect(res.status).toBe(200);
  });
});
