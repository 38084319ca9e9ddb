import { describe, expect, it } from '@jest/globals';

import { ProtocolSchema } from '../../lib/protocol/protocol-schema.js';
import { MalformedResourceResultError, readContents } from '../../lib/resources/resource-contents.js';

const schema = await ProtocolSchema.vendored();
const defaults = { uri: 'docs://a', mimeType: 'text/plain', where: 'resource "a" (AResource)' };

describe('readContents', () => {
  it('refuses a _meta JSON would change (a Map is sent as {}), naming where', () => {
    const read = () => readContents({ text: 'a', _meta: { index: new Map([['k', 1]]) } }, defaults, schema);
    expect(read).toThrow(MalformedResourceResultError);
    expect(read).toThrow(/resource "a" \(AResource\) read\(\) returned a value that holds a _meta JSON cannot carry/);
  });

  it('keeps a JSON _meta as it is, beside the defaults', () => {
    expect(readContents({ text: 'a', _meta: { part: 1 } }, defaults, schema)).toEqual([{ uri: 'docs://a', mimeType: 'text/plain', text: 'a', _meta: { part: 1 } }]);
  });

  it('names the first three problems the protocol finds with the contents', () => {
    const read = () => readContents({ uri: 1, mimeType: 2, text: 3, _meta: 'm' }, defaults, schema);
    expect(read).toThrow(MalformedResourceResultError);
    expect(read).toThrow(/^resource "a" \(AResource\) read\(\) returned contents that are not valid MCP resource contents: [^;]+; [^;]+; [^;]+$/);
  });

  it('shows at most 60 characters of a return that is no contents', () => {
    expect(() => readContents(10n ** 100n, defaults, schema)).toThrow(/returned a value that is neither text, bytes nor a contents object: .{1,60}$/);
    expect(() => readContents(10n ** 100n, defaults, schema)).not.toThrow(/0{70}/);
  });
});
