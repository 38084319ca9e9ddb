import { describe, expect, it } from '@jest/globals';

import { WaitingAnswers, type WaitingAnswer } from '../../lib/response/waiting-answers.js';

/** Answers that note their cuts, named for the test's messages. */
function answers(...names: string[]): { cut: string[]; of: Record<string, WaitingAnswer> } {
  const cut: string[] = [];
  const of = Object.fromEntries(names.map((name) => [name, { cutForRoom: () => cut.push(name) }]));
  return { cut, of };
}

describe('WaitingAnswers', () => {
  it('holds answers up to maxWaitingBytes together; one more cuts those waiting longest first, until they fit', () => {
    const waiting = new WaitingAnswers({ maxWaitingBytes: 25 });
    const { cut, of } = answers('a', 'b', 'c', 'd');
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

  it('puts an answer whose client took some at the back of the line', () => {
    const waiting = new WaitingAnswers({ maxWaitingBytes: 25 });
    const { cut, of } = answers('a', 'b', 'c');
    waiting.count(of.a!, 10, false);
    waiting.count(of.b!, 10, false);
    waiting.count(of.a!, 8, true);
    waiting.count(of.c!, 10, false);
    expect(cut).toEqual(['b']);
    expect(waiting.held).toBe(18);
  });

  it('keeps an answer counted again without progress in its place, its bytes as counted now', () => {
    const waiting = new WaitingAnswers({ maxWaitingBytes: 25 });
    const { cut, of } = answers('a', 'b', 'c');
    waiting.count(of.a!, 5, false);
    waiting.count(of.b!, 10, false);
    waiting.count(of.a!, 12, false);
    expect(waiting.held).toBe(22);
    waiting.count(of.c!, 5, false);
    expect(cut).toEqual(['a']);
  });

  it('never cuts the answer being counted: one past the bound alone goes on', () => {
    const waiting = new WaitingAnswers({ maxWaitingBytes: 25 });
    const { cut, of } = answers('a');
    waiting.count(of.a!, 100, false);
    waiting.count(of.a!, 90, false);
    expect(cut).toEqual([]);
    expect(waiting.held).toBe(90);
  });

  it('lets an answer go when nothing of it waits or it closed, its bytes no longer held', () => {
    const waiting = new WaitingAnswers({ maxWaitingBytes: 25 });
    const { cut, of } = answers('a', 'b', 'c');
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
