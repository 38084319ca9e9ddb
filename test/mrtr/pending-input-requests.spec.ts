import { setTimeout as sleep } from 'node:timers/promises';

import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';

import { PendingInputRequests } from '../../lib/mrtr/pending-input-requests.js';
import { resolveOptions } from '../../lib/options/resolve-options.js';
import { MountClosing } from '../../lib/response/mount-closing.js';

describe('PendingInputRequests: an answer no one awaits', () => {
  const unhandled: unknown[] = [];
  const onUnhandled = (reason: unknown) => void unhandled.push(reason);
  beforeEach(() => {
    unhandled.length = 0;
    process.on('unhandledRejection', onUnhandled);
  });
  afterEach(() => void process.off('unhandledRejection', onUnhandled));

  const requests = (timeoutMs = 60_000) =>
    new PendingInputRequests(
      resolveOptions({ serverInfo: { name: 's', version: '1' }, legacyInputRequests: { timeoutMs } }, 'mcp'),
      new MountClosing({ shutdownGraceMs: 10_000 }),
    );

  it('is withdrawn without an unhandled rejection, and whoever awaits it later still sees why', async () => {
    const pending = requests();
    const { id, answer, withdraw } = pending.open(undefined);
    withdraw();
    await sleep(20);
    expect(unhandled).toEqual([]);
    expect(pending.size).toBe(0);
    await expect(answer).rejects.toThrow(`input request ${id} was withdrawn: its call ended`);
  });

  it('times out without an unhandled rejection', async () => {
    const pending = requests(10);
    const { answer } = pending.open(undefined);
    await sleep(50);
    expect(unhandled).toEqual([]);
    expect(pending.size).toBe(0);
    await expect(answer).rejects.toThrow('did not answer');
  });
});
