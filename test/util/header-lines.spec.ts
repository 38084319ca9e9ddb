import { describe, expect, it } from '@jest/globals';

import { dropsExcessHeaderLines, HeaderLines, LISTED_LINES_MAX } from '../../lib/util/header-lines.js';

/** Raw header lines (`rawHeaders`) from name/value pairs. */
const raw = (pairs: [string, string][]): string[] => pairs.flat();

/** `count` distinct filler lines, `X-Filler-<i>: <i>`. */
const fillers = (count: number): [string, string][] => Array.from({ length: count }, (_, i): [string, string] => [`X-Filler-${i}`, String(i)]);

// Both forms: a request at the list's limit, and one a line over it (kept in a dictionary).
describe.each([
  ['listed', LISTED_LINES_MAX],
  ['in a dictionary', LISTED_LINES_MAX + 1],
])('HeaderLines, lines %s', (_form, total) => {
  const sent: [string, string][] = [
    ['Host', '127.0.0.1:3000'],
    ['MCP-Method', 'tools/call'],
    ['Authorization', 'Bearer a'],
    ['X-Custom', ''],
    // Repeated in another order than first sent, an empty first value among them.
    ['AUTHORIZATION', 'Bearer b'],
    ['mcp-method', 'tools/list'],
    ['x-custom', 'second'],
    ['Mcp-Method', 'ping'],
  ];
  const lines = new HeaderLines(raw([...sent, ...fillers(total - sent.length)]));

  it('reads the first line of a name, whatever its case, and nothing for a name not sent', () => {
    expect(lines.value('host')).toBe('127.0.0.1:3000');
    expect(lines.value('mcp-method')).toBe('tools/call');
    expect(lines.value('authorization')).toBe('Bearer a');
    expect(lines.value('x-custom')).toBe('');
    expect(lines.value(`x-filler-${total - sent.length - 1}`)).toBe(String(total - sent.length - 1));
    expect(lines.value('origin')).toBeUndefined();
    expect(lines.value('__proto__')).toBeUndefined();
    expect(lines.value('toString')).toBeUndefined();
  });

  it('knows which names came on more than one line, in order of first appearance', () => {
    expect(lines.repeated('mcp-method')).toBe(true);
    expect(lines.repeated('authorization')).toBe(true);
    expect(lines.repeated('x-custom')).toBe(true);
    expect(lines.repeated('host')).toBe(false);
    expect(lines.repeated('origin')).toBe(false);
    expect(lines.repeatedNames()).toEqual(['mcp-method', 'authorization', 'x-custom']);
  });
});

describe('HeaderLines, no repeated name', () => {
  it.each([0, 1, LISTED_LINES_MAX, LISTED_LINES_MAX + 1, 2000])('reports none among %i distinct lines', (count) => {
    const lines = new HeaderLines(raw(fillers(count)));
    expect(lines.repeatedNames()).toEqual([]);
    if (count) expect(lines.value(`x-filler-${count - 1}`)).toBe(String(count - 1));
  });

  it('finds a repeat among thousands of lines (the dictionary form)', () => {
    const lines = new HeaderLines(raw([...fillers(3000), ['x-filler-7', 'again']]));
    expect(lines.value('x-filler-7')).toBe('7');
    expect(lines.repeatedNames()).toEqual(['x-filler-7']);
  });
});

// The releases either side of the one that made each Node line refuse a request with more header lines than its
// server reads were run by hand on a request of 1,001 lines: the older read its first 1,000, the newer answered 431.
describe('dropsExcessHeaderLines', () => {
  it.each([
    ['20.20.2', true],
    ['22.23.1', true],
    ['22.23.2', false],
    ['22.24.0', false],
    ['23.11.1', true],
    ['24.18.0', true],
    ['24.18.1', false],
    ['24.22.3', false],
    ['25.9.0', true],
    ['26.5.0', true],
    ['26.5.1', false],
    ['26.12.1', false],
    ['27.0.0', false],
  ])('Node %s drops them: %s', (version, drops) => {
    expect(dropsExcessHeaderLines({ node: version })).toBe(drops);
  });

  it('Deno drops them whatever Node version it reports (2.9.6, run by hand, reports 26.3.0)', () => {
    expect(dropsExcessHeaderLines({ node: '26.3.0', deno: '2.9.6' })).toBe(true);
    expect(dropsExcessHeaderLines({ node: '27.1.0', deno: '3.0.0' })).toBe(true);
  });
});
