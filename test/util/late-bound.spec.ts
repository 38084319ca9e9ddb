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

  it('hands out methods bound to the provider, before binding and after, so a method passed on as a callback keeps its this', () => {
    const held = { instance: new Verifier('built') };
    const seam = new LateBound(Verifier, moduleRefHolding(held));
    const early = seam.instance.check;
    expect(early('a')).toBe('built:a');
    seam.bind();
    const late = seam.instance.check;
    expect(late('b')).toBe('built:b');
  });

  it("writes through to the provider, and hides the provider's lifecycle hooks (Nest must not run them twice)", () => {
    class Hooked extends Verifier {
      mode = 'loose';
      onModuleInit(): void {}
    }
    const provider = new Hooked('built');
    const seam = new LateBound(Hooked, { get: () => provider } as unknown as ModuleRef);
    seam.instance.mode = 'strict';
    expect(provider.mode).toBe('strict');
    expect(seam.instance.onModuleInit).toBeUndefined();
    expect('onModuleInit' in seam.instance).toBe(false);
    expect('check' in seam.instance).toBe(true);
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
