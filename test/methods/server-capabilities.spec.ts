import { describe, expect, it } from '@jest/globals';

import { ServerCapabilities } from '../../lib/methods/server-capabilities.js';
import type { CapabilitySource } from '../../lib/protocol/capability-source.js';

describe('ServerCapabilities', () => {
  it('gathers each era once, frozen with every entry: a result sharing it cannot change what later requests are told', () => {
    let gathered = 0;
    const source: CapabilitySource = {
      contribute(into, era) {
        gathered++;
        into.tools = { listChanged: era === 'modern' };
        into.logging = {};
      },
    };
    const capabilities = new ServerCapabilities([source]);
    const modern = capabilities.current('modern');
    expect(capabilities.current('modern')).toBe(modern);
    expect([Object.isFrozen(modern), ...Object.values(modern).map((entry) => Object.isFrozen(entry))]).toEqual([true, true, true]);
    expect(() => ((modern.tools as Record<string, unknown>).listChanged = false)).toThrow(TypeError);
    expect(capabilities.current('legacy')).toEqual({ tools: { listChanged: false }, logging: {} });
    expect(gathered).toBe(2);
  });
});
