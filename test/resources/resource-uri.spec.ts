import { describe, expect, it } from '@jest/globals';

import { absoluteUriProblem } from '../../lib/resources/resource-uri.js';

describe('absoluteUriProblem (RFC 3986 absolute URIs)', () => {
  it.each([
    'test://static-text',
    'file:///home/user/notes%20v2.md',
    'urn:isbn:0451450523',
    'mailto:ada@example.com',
    'https://[2001:db8::1]:8443/x?q=1#top',
    'https://ada@[2001:db8::1]/x',
    "app://a/b;c=d,e(f)!*'$&+",
  ])('accepts %s', (uri) => {
    expect(absoluteUriProblem(uri)).toBeUndefined();
  });

  it.each([
    ['/relative/path', /must be an absolute URI/],
    ['1app://x', /must be an absolute URI/],
    ['app://a b', /holds a character a URI cannot/],
    ['app://café', /holds a character a URI cannot/],
    ['app://a/%zz', /holds a character a URI cannot/],
    ['app://a/{id}', /holds a character a URI cannot/],
    ['app://a#b#c', /more than one "#"/],
    ['app://a##', /more than one "#"/],
    ['app://a/[x]', /outside an IP-literal host/],
    ['app://[::1]/[x]', /outside an IP-literal host/],
  ])('refuses %s', (uri, problem) => {
    expect(absoluteUriProblem(uri)).toMatch(problem);
  });
});
