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
});
