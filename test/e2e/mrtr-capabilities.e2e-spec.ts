import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';

import { ProtocolSchema } from '../../lib/protocol/protocol-schema.js';
import { INPUT_CAPABILITY_CASES } from '../support/input-capability-cases.js';
import { callTool, sampled } from '../support/mrtr-client.js';
import { AdaptiveTool, AskTool, DegradeTool } from '../support/mrtr-tools.js';
import { createTestApp, type TestApp } from '../support/test-app.js';

const schema = await ProtocolSchema.vendored();

describe('client capabilities of input requests (read from this request only)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ providers: [AskTool, AdaptiveTool, DegradeTool] });
  });
  afterAll(() => t.close());

  describe.each(INPUT_CAPABILITY_CASES)('%s', (_name, kind, without, required, enough, [key, method]) => {
    it(`is 400 + -32021 with data.requiredCapabilities ${JSON.stringify(required)} when undeclared`, async () => {
      const res = await callTool(t.server, 'ask', { kind }, { capabilities: without });
      expect(res.status).toBe(400);
      expect(res.headers['content-type']).toMatch(/^application\/json/);
      expect(schema.check('MissingRequiredClientCapabilityError', res.body)).toEqual([]);
      expect(res.body.error).toMatchObject({ code: -32021 });
      expect(res.body.error.data).toEqual({ requiredCapabilities: required });
      const needs = kind === 'url' ? 'URL-mode elicitation' : Object.keys(required)[0];
      expect(res.body.error.message).toBe(`Missing required client capability: this request needs ${needs}, which its clientCapabilities do not declare.`);
    });

    it(`is an input-required result when declared, asking ${method} under the key ${key}`, async () => {
      const res = await callTool(t.server, 'ask', { kind }, { capabilities: enough });
      expect(res.status).toBe(200);
      expect(res.body.result.resultType).toBe('input_required');
      expect(Object.entries(res.body.result.inputRequests).map(([k, r]: [string, any]) => [k, r.method])).toEqual([[key, method]]);
    });
  });

  it('lets a tool adapt: a sampling-only client gets a sampling-only input-required result', async () => {
    const res = await callTool(t.server, 'adaptive', {}, { capabilities: { sampling: {} } });
    expect(res.body.result.resultType).toBe('input_required');
    expect(Object.values(res.body.result.inputRequests).map((r: any) => r.method)).toEqual(['sampling/createMessage']);
  });

  it('lets a tool catch -32021 and do without', async () => {
    const without = await callTool(t.server, 'degrade', {}, { capabilities: {} });
    expect(without.body.result).toMatchObject({ resultType: 'complete', content: [{ text: 'without sampling' }] });
    const withSampling = await callTool(t.server, 'degrade', {}, { capabilities: { sampling: {} }, inputResponses: { 'sample-1': sampled('yes') } });
    expect(withSampling.body.result.content[0].text).toBe('sampled: yes');
  });

  it('never takes a capability from an earlier request: round two without it is -32021 again', async () => {
    const first = await callTool(t.server, 'ask', { kind: 'roots' }, { capabilities: { roots: {} } });
    const second = await callTool(t.server, 'ask', { kind: 'roots' }, { capabilities: {}, requestState: first.body.result.requestState });
    expect(second.status).toBe(400);
    expect(second.body.error.code).toBe(-32021);
  });
});
