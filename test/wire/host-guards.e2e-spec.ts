import type { IncomingMessage } from 'node:http';

import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Controller, Get, HttpCode, Post, Req, UseFilters, UseGuards } from '@nestjs/common';
import request from 'supertest';

import {
  HeaderBindingGuard,
  McpAuthGuard,
  McpExceptionFilter,
  MessageValidationGuard,
  OriginGuard,
  ParseStepGuard,
  ProtocolFieldsGuard,
  SingletonHeaderGuard,
} from '../../lib/index.js';
import { post, recordEvents, rejectionOf, rpc } from '../support/mcp-client.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { GOOD_TOKEN, TokenAuth } from './wire-fixtures.js';

/** A host's own controller, beside the mount, reusing two wire checks and the rejection sender. */
@Controller('host')
@UseFilters(McpExceptionFilter)
class HostController {
  @Post('guarded')
  @HttpCode(200)
  @UseGuards(OriginGuard, McpAuthGuard)
  guarded(): { ok: true } {
    return { ok: true };
  }

  @Post('rpc')
  @HttpCode(200)
  @UseGuards(SingletonHeaderGuard, ParseStepGuard, MessageValidationGuard, ProtocolFieldsGuard, HeaderBindingGuard)
  rpc(): { ok: true } {
    return { ok: true };
  }

  @Post('binding-alone')
  @HttpCode(200)
  @UseGuards(HeaderBindingGuard)
  bindingAlone(): { ok: true } {
    return { ok: true };
  }

  @Post('binding-without-fields')
  @HttpCode(200)
  @UseGuards(ParseStepGuard, MessageValidationGuard, HeaderBindingGuard)
  bindingWithoutFields(): { ok: true } {
    return { ok: true };
  }

  /** Shows how Node exposes a header: joined in `headers`, line by line in `headersDistinct`. */
  @Get('echo-header')
  echo(@Req() hostReq: IncomingMessage | { raw: IncomingMessage }): { headers: unknown; headersDistinct: unknown } {
    const req = 'raw' in hostReq ? hostReq.raw : hostReq;
    return { headers: req.headers['mcp-method'] ?? null, headersDistinct: req.headersDistinct['mcp-method'] ?? null };
  }
}

describe('a host controller reusing the exported guards', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ controllers: [HostController], options: { auth: new TokenAuth() } });
  });
  afterAll(() => t.close());

  it('lets a request with a good token and no foreign origin through to its handler', async () => {
    const res = await request(t.server).post('/host/guarded').set('Authorization', `Bearer ${GOOD_TOKEN}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ok: true });
  });

  it('refuses a foreign origin with 403 in the JSON-RPC dialect, marked by the origin check', async () => {
    let res: any;
    const mark = await rejectionOf(async () => {
      res = await request(t.server).post('/host/guarded').set('Authorization', `Bearer ${GOOD_TOKEN}`).set('Origin', 'http://evil.example.com');
    });
    expect(res.status).toBe(403);
    expect(res.body).toEqual({
      jsonrpc: '2.0',
      error: {
        code: -32600,
        message:
          'Forbidden: the Origin header value "http://evil.example.com" is not a loopback origin, and a request arriving on a loopback address may carry another only when the server lists it in its allowedOrigins option.',
      },
    });
    expect(mark).toEqual({ rejecter: 'origin-check', reason: 'forbidden_origin' });
  });

  it('refuses a missing token with 401, a Bearer challenge, in the JSON-RPC dialect, marked by the auth check', async () => {
    let res: any;
    const mark = await rejectionOf(async () => {
      res = await request(t.server).post('/host/guarded');
    });
    expect(res.status).toBe(401);
    expect(res.headers['www-authenticate']).toBe('Bearer');
    expect(res.body).toEqual({ jsonrpc: '2.0', error: { code: -32600, message: 'Unauthorized: this request needs a valid bearer token.' } });
    expect(mark).toEqual({ rejecter: 'auth-check', reason: 'unauthorized' });
  });

  it("runs the guards in the order the host bound them: a foreign origin without a token is the origin check's", async () => {
    const mark = await rejectionOf(() => request(t.server).post('/host/guarded').set('Origin', 'http://evil.example.com'));
    expect(mark).toEqual({ rejecter: 'origin-check', reason: 'forbidden_origin' });
  });

  it('runs the singleton-header check and header binding on a host route bound after the stages they read from', async () => {
    const body = rpc('tools/list');
    expect((await post(t.server, body, {}, '/host/rpc')).body).toEqual({ ok: true });
    let res: any;
    const duplicate = await rejectionOf(async () => (res = await post(t.server, body, { 'mcp-method': ['tools/list', 'tools/list'] }, '/host/rpc')));
    expect({ status: res.status, code: res.body.error.code, duplicate }).toEqual({
      status: 400,
      code: -32020,
      duplicate: { rejecter: 'singleton-header-check', reason: 'duplicate_header' },
    });
    const mismatch = await rejectionOf(async () => (res = await post(t.server, body, { 'mcp-method': 'tools/call' }, '/host/rpc')));
    expect({ status: res.status, id: res.body.id, code: res.body.error.code, mismatch }).toEqual({
      status: 400,
      id: body.id,
      code: -32020,
      mismatch: { rejecter: 'header-binding-check', reason: 'header_mismatch' },
    });
  });

  it.each(['/host/binding-alone', '/host/binding-without-fields'])(
    'fails closed when HeaderBindingGuard is bound without the stages it reads from (%s): 500, never a pass',
    async (path) => {
      let res: any;
      const events = await recordEvents(['mcp:method:error', 'mcp:wire:reject'], async () => (res = await post(t.server, rpc('tools/list'), {}, path)));
      expect(res.status).toBe(500);
      expect(res.body.error.code).toBe(-32603);
      expect(events.map((e) => e.channel)).toEqual(['mcp:method:error']);
    },
  );

  it('shows that supertest sends two header lines for an array and Node keeps them apart only in headersDistinct', async () => {
    const res = await request(t.server)
      .get('/host/echo-header')
      .set('Mcp-Method', ['tools/list', 'tools/call'] as unknown as string); // superagent types admit arrays only for Cookie
    expect(res.body).toEqual({ headers: 'tools/list, tools/call', headersDistinct: ['tools/list', 'tools/call'] });
  });
});
