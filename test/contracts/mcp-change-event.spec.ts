import { describe, expect, it } from '@jest/globals';

import { isMcpChangeEvent, MCP_CHANGE_KINDS } from '../../lib/index.js';

describe('isMcpChangeEvent', () => {
  it.each(MCP_CHANGE_KINDS.filter((kind) => kind !== 'resourceUpdated'))('takes a %s event', (kind) => {
    expect(isMcpChangeEvent({ kind })).toBe(true);
  });

  it('takes a resourceUpdated event only with an absolute uri', () => {
    expect(isMcpChangeEvent({ kind: 'resourceUpdated', uri: 'app://notes/1' })).toBe(true);
    expect(isMcpChangeEvent({ kind: 'resourceUpdated' })).toBe(false);
    expect(isMcpChangeEvent({ kind: 'resourceUpdated', uri: 'notes/1' })).toBe(false);
    expect(isMcpChangeEvent({ kind: 'resourceUpdated', uri: 7 })).toBe(false);
  });

  it.each([
    ['an unknown kind', { kind: 'toolsChanged' }],
    ['no kind', {}],
    ['an array holding a kind', Object.assign([], { kind: 'toolsListChanged' })],
    ['a string', 'toolsListChanged'],
    ['null', null],
  ])('refuses %s', (_what, value) => {
    expect(isMcpChangeEvent(value)).toBe(false);
  });
});
