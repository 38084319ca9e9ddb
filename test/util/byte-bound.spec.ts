import { describe, expect, it } from '@jest/globals';

import { ByteBound, type BoundMember } from '../../lib/util/byte-bound.js';

/** Members that note their cuts, named for the test's messages. */
function members(...names: string[]): { cut: string[]; of: Record<string, BoundMember> } {
  const cut: string[] = [];
  const of = Object.fromEntries(names.map((name) => [name, { cutForRoom: () => cut.push(name) }]));
  return { cut, of };
}

describe('ByteBound', () => {
  it('holds members up to its bound together; one more cuts those that moved least recently first, until they fit', () => {
    const waiting = new ByteBound(25);
    const { cut, of } = members('a', 'b', 'c', 'd');
    waiting.count(of.a!, 10, false);
    waiting.count(of.b!, 10, false);
    expect(waiting.held).toBe(20);
    expect(cut).toEqual([]);
    waiting.count(of.c!, 10, false);
    expect(cut).toEqual(['a']);
    expect(waiting.held).toBe(20);
    waiting.count(of.d!, 20, false);
    expect(cut).toEqual(['a', 'b', 'c']);
    expect(waiting.held).toBe(20);
  });

  it('puts a member that moved at the back of the line', () => {
    const waiting = new ByteBound(25);
    const { cut, of } = members('a', 'b', 'c');
    waiting.count(of.a!, 10, false);
    waiting.count(of.b!, 10, false);
    waiting.count(of.a!, 8, true);
    waiting.count(of.c!, 10, false);
    expect(cut).toEqual(['b']);
    expect(waiting.held).toBe(18);
  });

  it('keeps a member counted again without moving in its place, its bytes as counted now', () => {
    const waiting = new ByteBound(25);
    const { cut, of } = members('a', 'b', 'c');
    waiting.count(of.a!, 5, false);
    waiting.count(of.b!, 10, false);
    waiting.count(of.a!, 12, false);
    expect(waiting.held).toBe(22);
    waiting.count(of.c!, 5, false);
    expect(cut).toEqual(['a']);
  });

  it('never cuts the member being counted: one past the bound alone goes on', () => {
    const waiting = new ByteBound(25);
    const { cut, of } = members('a');
    waiting.count(of.a!, 100, false);
    waiting.count(of.a!, 90, false);
    expect(cut).toEqual([]);
    expect(waiting.held).toBe(90);
  });

  it('lets a member go when it holds nothing or is forgotten, its bytes no longer held', () => {
    const waiting = new ByteBound(25);
    const { cut, of } = members('a', 'b', 'c');
    waiting.count(of.a!, 10, false);
    waiting.count(of.b!, 10, false);
    waiting.count(of.a!, 0, true);
    waiting.forget(of.b!);
    waiting.forget(of.b!);
    expect(waiting.held).toBe(0);
    waiting.count(of.c!, 25, false);
    expect(cut).toEqual([]);
  });
});
