import diagnosticsChannel from 'node:diagnostics_channel';

import { describe, expect, it } from '@jest/globals';

import { publish } from '../../lib/telemetry/channels.js';
import { TelemetryLogger } from '../../lib/telemetry/telemetry-logger.js';

const subscribed = (): boolean => diagnosticsChannel.channel('mcp:method:error').hasSubscribers;

describe('the telemetry logger shares its subscriptions between mounts', () => {
  it('counts each logger once, however often its hooks run (Nest may start a second teardown)', () => {
    const first = new TelemetryLogger('faults');
    const second = new TelemetryLogger('faults');
    first.onModuleInit();
    first.onModuleInit();
    second.onModuleInit();
    first.onApplicationShutdown();
    first.onApplicationShutdown();
    expect(subscribed()).toBe(true); // the second still holds them
    second.onApplicationShutdown();
    expect(subscribed()).toBe(false);
  });
});

describe('publishing', () => {
  it('builds no event on a channel nobody listens to', () => {
    let built = 0;
    publish('mcp:tool:start', () => (built++, { mount: '/mcp', tool: 'echo', era: 'modern' }));
    expect(built).toBe(0);
    const heard: unknown[] = [];
    const listener = (message: unknown) => heard.push(message);
    diagnosticsChannel.subscribe('mcp:tool:start', listener);
    try {
      publish('mcp:tool:start', () => (built++, { mount: '/mcp', tool: 'echo', era: 'modern' }));
    } finally {
      diagnosticsChannel.unsubscribe('mcp:tool:start', listener);
    }
    expect([built, heard]).toEqual([1, [{ mount: '/mcp', tool: 'echo', era: 'modern' }]]);
  });
});
