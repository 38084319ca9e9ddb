import { describe, expect, it } from '@jest/globals';
import { of } from 'rxjs';

import { emptiedReturn } from '../../lib/validation/emptied-return.js';

describe('emptiedReturn: a return JSON would send as {}', () => {
  it.each([
    ['an rxjs Observable', of(1), /^an Observable, /],
    ['a Map', new Map([['a', 1]]), /^a Map, .*Object\.fromEntries/],
    ['an empty Map', new Map(), /^a Map, /],
    ['a Set', new Set([1]), /^a Set, .*Array\.from/],
    ['a Map subclass', new (class Registry extends Map {})(), /^a Map, /],
  ])('names %s and what to return instead', (_kind, value, named) => {
    expect(emptiedReturn(value)).toMatch(named);
  });

  it.each([
    ['a Map with its own toJSON (sent as that writes it)', Object.assign(new Map(), { toJSON: () => ({}) })],
    ['a plain object with a subscribe method alone', { subscribe: () => undefined }],
    [
      'an instance with a subscribe method alone (a store, not an Observable)',
      new (class Store {
        subscribe() {
          return undefined;
        }
      })(),
    ],
    ['a plain object with subscribe and lift methods (data, never an Observable)', { subscribe: () => undefined, lift: () => undefined, id: 1 }],
    ['a plain object', { id: 1 }],
    ['an array', [new Map()]],
    ['a Date', new Date(0)],
    ['a proxy of a Map (its traps never run)', new Proxy(new Map(), {})],
    [
      'a revoked proxy',
      (() => {
        const { proxy, revoke } = Proxy.revocable({}, {});
        revoke();
        return proxy;
      })(),
    ],
    [
      'an object whose getter throws',
      Object.defineProperty({}, 'subscribe', {
        get: () => {
          throw new Error('no');
        },
      }),
    ],
    [
      'an instance whose getter throws',
      new (class Feed {
        get subscribe(): never {
          throw new Error('no');
        }
      })(),
    ],
    ['a string', 'text'],
    ['null', null],
  ])('passes %s', (_kind, value) => {
    expect(emptiedReturn(value)).toBeUndefined();
  });
});
