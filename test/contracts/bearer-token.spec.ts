import type { IncomingMessage } from 'node:http';

import { describe, expect, it } from '@jest/globals';

import { bearerToken } from '../../lib/index.js';

const withAuthorization = (authorization: unknown) => ({ headers: { authorization } }) as unknown as IncomingMessage;

describe('bearerToken (RFC 6750 b64token)', () => {
  it.each([
    ['Bearer abc', 'abc'],
    ['bearer abc', 'abc'], // the scheme is case-blind (RFC 9110 §11.1)
    ['BEARER abc', 'abc'],
    ['Bearer   abc', 'abc'],
    ['Bearer abc  ', 'abc'],
    ['Bearer dG9rZW4=', 'dG9rZW4='],
    ['Bearer dG9r==', 'dG9r=='],
    ['Bearer a-b.c_d~e+f/g', 'a-b.c_d~e+f/g'],
  ])('reads %p as %p', (header, token) => {
    expect(bearerToken(withAuthorization(header))).toBe(token);
  });

  it.each(['Basic YTpi', 'Bearer', 'Bearer ', 'Bearerabc', 'Bearer a b', 'Bearer =abc', 'Bearer ab=c', 'Bearer ab"c', 'Bearer ab,c', 'Bearer \tabc', ' Bearer abc'])(
    'reads no token from %p',
    (header) => {
      expect(bearerToken(withAuthorization(header))).toBeUndefined();
    },
  );

  it('reads no token from a request without the header, or with a header that is no string', () => {
    expect(bearerToken({ headers: {} } as IncomingMessage)).toBeUndefined();
    expect(bearerToken(withAuthorization(['Bearer abc']))).toBeUndefined();
  });
});
