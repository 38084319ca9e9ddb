import { describe, expect, it } from '@jest/globals';

import { McpConfigurationError } from '../../lib/errors/mcp-configuration.error.js';
import { NamedRegistry } from '../../lib/util/named-registry.js';

const entry = (name: string) => ({ name });

describe('NamedRegistry', () => {
  it('lists its entries sorted by name (UTF-16 code unit order), whatever order they were wired in', () => {
    const registry = new NamedRegistry<{ name: string }>('tool');
    for (const name of ['b', 'a_2', 'Z', 'a', 'a.1']) registry.add(entry(name));
    expect(registry.list().map((e) => e.name)).toEqual(['Z', 'a', 'a.1', 'a_2', 'b']);
    expect(registry.size).toBe(5);
  });

  it('gives the same list until the next wire-in, and never changes a list it gave', () => {
    const registry = new NamedRegistry<{ name: string }>('tool');
    registry.add(entry('m'));
    const first = registry.list();
    expect(registry.list()).toBe(first);
    registry.add(entry('a'));
    expect(first.map((e) => e.name)).toEqual(['m']);
    expect(registry.list().map((e) => e.name)).toEqual(['a', 'm']);
  });

  it('refreshes what refusals list at the next wire-in', () => {
    const registry = new NamedRegistry<{ name: string }>('tool');
    registry.add(entry('m'));
    expect(registry.listedNames()).toBe('m');
    expect(registry.namesListed()).toEqual({ available: ['m'], availableCount: 1 });
    registry.add(entry('a'));
    expect(registry.listedNames()).toBe('a, m');
    expect(registry.namesListed()).toEqual({ available: ['a', 'm'], availableCount: 2 });
  });

  it('takes names of 1 to 128 characters of A-Z, a-z, 0-9, "_", "-" and ".", and refuses any other', () => {
    const registry = new NamedRegistry<{ name: string }>('tool');
    for (const name of ['a', 'x'.repeat(128), 'Az09_-.', 'db.query']) expect(() => registry.checkName(name)).not.toThrow();
    for (const name of ['', 'x'.repeat(129), 'a b', 'a/b', 'é', 42]) expect(() => registry.checkName(name)).toThrow(McpConfigurationError);
  });

  it('refuses a name already taken, and finds nothing under a name it does not hold (__proto__ included)', () => {
    const registry = new NamedRegistry<{ name: string }>('prompt');
    registry.add(entry('greet'));
    expect(() => registry.add(entry('greet'))).toThrow(McpConfigurationError);
    expect(() => registry.add(entry('greet'))).toThrow(/prompt "greet".*declared more than once/);
    expect(registry.get('greet')).toEqual(entry('greet'));
    expect(registry.get('__proto__')).toBeUndefined();
    expect(registry.list()).toHaveLength(1);
  });
});
