import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';

import { EchoTool, HeaderDrivenAuth } from '../support/fixture-tools.js';
import { initialize, legacyHeaders, legacyPost } from '../support/legacy-client.js';
import { post, rpc } from '../support/mcp-client.js';
import { createTestApp, type TestApp } from '../support/test-app.js';

/** The origin of a browser client's page, allowed by both CORS and the origin check. */
const APP_ORIGIN = 'https://app.example';

/** The header names an `Access-Control-Expose-Headers` lists (Express joins them with `,`, Fastify's CORS with `, `). */
const exposed = (value: string | null | undefined) => value?.split(/,\s*/);

/** A browser client: Nest's own CORS (`app.enableCors`) answers the preflight, the mount's origin check the rest. */
describe('a browser client, with the host app enabling CORS (the README recipe)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({
      providers: [EchoTool, HeaderDrivenAuth],
      options: { allowedOrigins: [APP_ORIGIN], auth: HeaderDrivenAuth },
      configure: (app) => app.enableCors({ origin: [APP_ORIGIN], methods: ['GET', 'HEAD', 'POST', 'DELETE'], exposedHeaders: ['WWW-Authenticate', 'Mcp-Session-Id'] }),
    });
  });
  afterAll(() => t.close());

  const url = () => `http://127.0.0.1:${(t.server.address() as { port: number }).port}/mcp`;

  it("answers the browser's preflight with what a POST to the mount needs", async () => {
    const res = await fetch(url(), {
      method: 'OPTIONS',
      headers: { origin: APP_ORIGIN, 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type,mcp-protocol-version,mcp-method,mcp-name' },
    });
    expect(res.status).toBe(204);
    expect(res.headers.get('access-control-allow-origin')).toBe(APP_ORIGIN);
    expect(res.headers.get('access-control-allow-methods')).toContain('POST');
    expect(res.headers.get('access-control-allow-headers')).toBe('content-type,mcp-protocol-version,mcp-method,mcp-name');
  });

  it("lets a legacy page client's DELETE at close through the preflight (Fastify's CORS allows only GET, HEAD, POST unless told)", async () => {
    const preflight = await fetch(url(), {
      method: 'OPTIONS',
      headers: { origin: APP_ORIGIN, 'access-control-request-method': 'DELETE', 'access-control-request-headers': 'mcp-session-id' },
    });
    expect(preflight.status).toBe(204);
    expect(exposed(preflight.headers.get('access-control-allow-methods'))).toContain('DELETE');
    const close = await fetch(url(), { method: 'DELETE', headers: { origin: APP_ORIGIN } });
    expect(close.status).toBe(405);
    expect(close.headers.get('access-control-allow-origin')).toBe(APP_ORIGIN);
  });

  it("serves the page's POST, with the CORS header its browser reads the answer by", async () => {
    const res = await post(t.server, rpc('tools/call', { name: 'echo', arguments: { text: 'from a page' } }), { origin: APP_ORIGIN });
    expect(res.status).toBe(200);
    expect(res.headers['access-control-allow-origin']).toBe(APP_ORIGIN);
    expect(res.body.result.content).toEqual([{ type: 'text', text: 'from a page' }]);
  });

  it("lets the page's browser read a 401's challenge (WWW-Authenticate exposed)", async () => {
    const res = await post(t.server, rpc('tools/call', { name: 'echo', arguments: { text: 'x' } }), { origin: APP_ORIGIN, 'x-test-auth': 'deny' });
    expect(res.status).toBe(401);
    expect(res.headers['access-control-allow-origin']).toBe(APP_ORIGIN);
    expect(exposed(res.headers['access-control-expose-headers'])).toEqual(['WWW-Authenticate', 'Mcp-Session-Id']);
    expect(res.headers['www-authenticate']).toMatch(/^Bearer /);
  });

  it('lets a legacy page client read the session id of its initialize (Mcp-Session-Id exposed)', async () => {
    const res = await legacyPost(t.server, initialize(), { ...legacyHeaders(null), origin: APP_ORIGIN });
    expect(exposed(res.headers.get('access-control-expose-headers'))).toEqual(['WWW-Authenticate', 'Mcp-Session-Id']);
    expect(res.headers.get('mcp-session-id')).toMatch(/^[0-9a-f-]{36}\./);
  });

  it("still refuses another site's page with the origin check (403)", async () => {
    const res = await post(t.server, rpc('tools/call', { name: 'echo', arguments: { text: 'x' } }), { origin: 'https://evil.example' });
    expect(res.status).toBe(403);
    expect(res.body.error.code).toBe(-32600);
  });
});
