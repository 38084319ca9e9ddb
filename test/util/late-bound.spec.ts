import { describe, expect, it } from '@jest/globals';
import type { ModuleRef } from '@nestjs/core';

import { LateBound } from '../../lib/util/late-bound.js';

class Verifier {
  constructor(readonly name: string) {}
  check(token: string): string {
    return `${this.name}:${token}`;
  }
}

/** A ModuleRef whose `get` hands out whatever `held.instance` is now, as Nest's does while it builds a provider. */
function moduleRefHolding(held: { instance: Verifier }): ModuleRef {
  return { get: () => held.instance } as unknown as ModuleRef;
}

describe('LateBound: a host provider reached through a stand-in until module init', () => {
  it('follows the provider until bound (its placeholder, then the constructed instance), then keeps it', () => {
    const held = { instance: Object.create(Verifier.prototype) as Verifier }; // Nest's placeholder: never constructed
    const seam = new LateBound(Verifier, moduleRefHolding(held));
    expect(seam.instance).toBeInstanceOf(Verifier);
    held.instance = new Verifier('built');
    expect(seam.instance.check('t')).toBe('built:t');
    seam.bind();
    held.instance = new Verifier('other');
    expect(seam.instance.check('t')).toBe('built:t');
    expect(seam.instance.name).toBe('built');
  });

  it('calls a method replaced on the bound instance after binding (a test spy), not the one it first bound', () => {
    const held = { instance: new Verifier('built') };
    const seam = new LateBound(Verifier, moduleRefHolding(held));
    seam.bind();
    expect(seam.instance.check('a')).toBe('built:a');
    held.instance.check = (token: string) => `spied:${token}`;
    expect(seam.instance.check('b')).toBe('spied:b');
  });
});
