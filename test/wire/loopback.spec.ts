import { describe, expect, it } from '@jest/globals';

import { isLoopbackAddress, isLoopbackHost, isLoopbackOrigin } from '../../lib/wire/loopback.js';

// Each function keeps its last answer: the sequences ask about a value again after another, and twice in a row.
describe('loopback detection', () => {
  it('tells loopback socket addresses from others, asked in any order', () => {
    const asked: [string | undefined, boolean][] = [
      ['127.0.0.1', true],
      ['127.0.0.1', true],
      ['10.0.0.1', false],
      ['::ffff:127.0.0.1', true],
      ['::1', true],
      ['2001:db8::1', false],
      ['::ffff:10.0.0.1', false],
      ['::FFFF:127.0.0.1', true],
      ['1::ffff:127.0.0.1', false],
      ['127.0.0.1::ffff:', false],
      ['127.0.0.1.5', false],
      [undefined, false],
      ['', false],
      ['127.0.0.1', true],
      ['192.168.1.1', false],
      ['192.168.1.1', false],
    ];
    expect(asked.map(([address]) => isLoopbackAddress(address))).toEqual(asked.map(([, loopback]) => loopback));
  });

  it('tells loopback Host values from others, asked in any order, and through an Origin', () => {
    const asked: [string, boolean][] = [
      ['localhost:3000', true],
      ['evil.example', false],
      ['localhost:3000', true],
      ['127.0.0.1', true],
      ['127.0.0.1.evil.example', false],
      ['[::1]:8080', true],
      ['LOCALHOST', true],
      ['localhost.', false],
      ['127.255.255.255', true],
      ['127.0.0.256', false],
      ['127.0.0.01', false],
      ['localhost:65535', true],
      ['localhost:123456', false],
    ];
    expect(asked.map(([host]) => isLoopbackHost(host))).toEqual(asked.map(([, loopback]) => loopback));
    expect(isLoopbackOrigin('http://localhost:3000')).toBe(true);
    expect(isLoopbackOrigin('http://evil.example')).toBe(false);
    expect(isLoopbackOrigin('https://127.0.0.1')).toBe(true);
    expect(isLoopbackOrigin('ftp://localhost')).toBe(false);
    expect(isLoopbackHost('localhost:3000')).toBe(true);
  });
});
