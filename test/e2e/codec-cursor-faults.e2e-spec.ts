import { describe, expect, it } from '@jest/globals';

import { HmacRequestStateCodec, type RequestStateCodec } from '../../lib/index.js';
import { EchoTool } from '../support/fixture-tools.js';
import { initialize, legacyHeaders, legacyPost } from '../support/legacy-client.js';
import { post, recordEvents, rpc } from '../support/mcp-client.js';
import { ConfirmDeleteTool } from '../support/mrtr-tools.js';
import { createTestApp } from '../support/test-app.js';

const SECRET = 'a-long-random-secret-0123456789-abcdefghijklmnop';

/** The HMAC codec, but `seal` gives what `sealed` says (a codec whose backend answered something odd), while it is set. */
class OddSealCodec implements RequestStateCodec {
  private readonly hmac = new HmacRequestStateCodec([SECRET]);
  sealed: ((payload: string) => unknown) | undefined;
  seal(payload: string): string {
    return (this.sealed ? this.sealed(payload) : this.hmac.seal(payload)) as string;
  }
  open(sealed: string) {
    return this.hmac.open(sealed);
  }
}

describe('a requestState codec whose seal gives no usable list cursor', () => {
  it.each([
    ['undefined', () => undefined],
    ['a number', () => 42],
    ['a string one character longer than a cursor may be (4097 characters)', () => 'x'.repeat(4097)],
  ])(
    'answers tools/list with a contained fault when seal gives %s, never a cut list or a cursor it refuses, and lists in full once the codec recovers',
    async (_what, sealed) => {
      const codec = new OddSealCodec();
      const t = await createTestApp({ providers: [EchoTool, ConfirmDeleteTool], options: { pageSize: 1, requestState: { codec } } });
      try {
        const sid = (await legacyPost(t.server, initialize())).headers.get('mcp-session-id')!;
        codec.sealed = sealed;
        let modern: any;
        const events = await recordEvents(['mcp:method:error'], async () => {
          modern = await post(t.server, rpc('tools/list'));
        });
        expect(modern.status).toBe(500);
        expect(modern.body.error).toEqual({ code: -32603, message: 'Internal error while handling tools/list.' });
        expect(events.map((e) => e.message.method)).toEqual(['tools/list']);
        const legacy = await legacyPost(t.server, { jsonrpc: '2.0', id: 2, method: 'tools/list', params: {} }, legacyHeaders('2025-11-25', { 'mcp-session-id': sid }));
        expect(legacy.messages[0]!.error).toMatchObject({ code: -32603 });
        // The codec recovers: the whole list is served, page by page.
        codec.sealed = undefined;
        const names: string[] = [];
        let cursor: string | undefined;
        do {
          const page = await post(t.server, rpc('tools/list', cursor === undefined ? {} : { cursor }));
          expect(page.status).toBe(200);
          names.push(...page.body.result.tools.map((tool: { name: string }) => tool.name));
          cursor = page.body.result.nextCursor;
        } while (cursor !== undefined);
        expect(names.sort()).toEqual(['confirm_delete', 'echo', 'help']);
      } finally {
        await t.close();
      }
    },
  );
});

/** The HMAC codec with every sealed string padded to exactly `length` characters (`~` is not in its alphabet); counts opens. */
class PaddedCodec implements RequestStateCodec {
  private readonly hmac = new HmacRequestStateCodec([SECRET]);
  opens = 0;
  constructor(private readonly length: number) {}
  seal(payload: string): string {
    return this.hmac.seal(payload).padStart(this.length, '~');
  }
  open(sealed: string) {
    this.opens += 1;
    return this.hmac.open(sealed.replace(/^~+/, ''));
  }
}

describe('the longest list cursor', () => {
  it('pages on with a cursor of exactly 4096 characters, and refuses one of 4097 unopened (400, invalid_cursor)', async () => {
    const codec = new PaddedCodec(4096);
    const t = await createTestApp({ providers: [EchoTool, ConfirmDeleteTool], options: { pageSize: 1, requestState: { codec } } });
    try {
      const first = await post(t.server, rpc('tools/list'));
      const cursor: string = first.body.result.nextCursor;
      expect(cursor).toHaveLength(4096);
      const second = await post(t.server, rpc('tools/list', { cursor }));
      expect(second.status).toBe(200);
      expect(second.body.result.tools).toHaveLength(1);
      expect(second.body.result.tools[0].name).not.toBe(first.body.result.tools[0].name);
      const opens = codec.opens;
      const longer = await post(t.server, rpc('tools/list', { cursor: `~${cursor}` }));
      expect(longer.status).toBe(400);
      expect(longer.body.error).toMatchObject({ code: -32602, data: { reason: 'invalid_cursor' } });
      expect(codec.opens).toBe(opens);
    } finally {
      await t.close();
    }
  });
});

describe('a list cursor the codec opens that this server never issued (sealed by whoever holds the secret)', () => {
  const codec = new HmacRequestStateCodec([SECRET]);
  const cursorOf = (payload: Record<string, unknown>) => codec.seal(JSON.stringify({ k: 'cursor', m: 'mcp', l: 'tools/list', o: 1, ...payload }));

  it.each([
    ['an offset of 0 (a first page has no cursor)', { o: 0 }],
    ['an offset that is no integer', { o: 1.5 }],
    ['an offset written as a string', { o: '1' }],
    ['no kind', { k: undefined }],
    ['the kind of another sealed value', { k: 'state' }],
    ['another list', { l: 'prompts/list' }],
    ['another mount', { m: '/mcp' }],
  ])('is refused 400 + -32602 (invalid_cursor): %s', async (_what, payload) => {
    const t = await createTestApp({ providers: [EchoTool, ConfirmDeleteTool], options: { pageSize: 1, requestState: { codec } } });
    try {
      expect((await post(t.server, rpc('tools/list', { cursor: cursorOf({}) }))).status).toBe(200); // the same seal, well-formed, pages on
      const res = await post(t.server, rpc('tools/list', { cursor: cursorOf(payload) }));
      expect([res.status, res.body.error]).toEqual([400, expect.objectContaining({ code: -32602, data: { reason: 'invalid_cursor' } })]);
    } finally {
      await t.close();
    }
  });
});
