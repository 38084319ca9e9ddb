import diagnosticsChannel from 'node:diagnostics_channel';

import type { McpChannel, McpTelemetryEvents } from '../../lib/index.js';

/** Waits until `condition` holds, polling; fails naming `what` after `timeoutMs`, or at once when `failed()` holds. */
export async function until(condition: () => boolean, what: string, timeoutMs = 3000, failed: () => boolean = () => false): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (failed()) throw new Error(`gave up waiting for ${what}`);
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** The next message published on a telemetry channel; fails after `timeoutMs`. */
export function nextEvent<C extends McpChannel>(channel: C, timeoutMs = 10_000): Promise<McpTelemetryEvents[C]> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => (diagnosticsChannel.unsubscribe(channel, heard), reject(new Error(`nothing on ${channel} in ${timeoutMs} ms`))), timeoutMs);
    function heard(message: unknown): void {
      clearTimeout(timer);
      diagnosticsChannel.unsubscribe(channel, heard);
      resolve(message as McpTelemetryEvents[C]);
    }
    diagnosticsChannel.subscribe(channel, heard);
  });
}
