import { setTimeout as sleep } from 'node:timers/promises';

import { afterEach, beforeEach, describe, expect, it, jest } from '@jest/globals';

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
    await expect(answer).rejects.toMatchObject({ code: -32603, data: { reason: 'input_request_timeout' } });
  });
});

describe('PendingInputRequests: bounds and shutdown', () => {
  const requests = (legacyInputRequests: Record<string, number>, closing = new MountClosing({ shutdownGraceMs: 10_000 })) =>
    new PendingInputRequests(resolveOptions({ serverInfo: { name: 's', version: '1' }, legacyInputRequests }, 'mcp'), closing);

  it('takes a call whose request brings the held bytes exactly to maxPendingBytes, and refuses one byte more', async () => {
    const pending = requests({ maxPendingBytes: 100 });
    const first = pending.open(undefined, 60);
    const second = pending.open(undefined, 40);
    expect(() => pending.open(undefined, 1)).toThrow(expect.objectContaining({ data: expect.objectContaining({ reason: 'too_many_pending_input_bytes' }) }));
    first.withdraw();
    second.withdraw();
    expect(pending.size).toBe(0);
  });

  it('fails a request its client has not answered once timeoutMs have passed, not before', async () => {
    jest.useFakeTimers();
    try {
      const pending = requests({ timeoutMs: 1000 });
      const { answer } = pending.open(undefined, 10);
      let outcome: unknown;
      answer.then(
        (value) => (outcome = value),
        (error: unknown) => (outcome = error),
      );
      await jest.advanceTimersByTimeAsync(999);
      expect(outcome).toBeUndefined();
      expect(pending.size).toBe(1);
      await jest.advanceTimersByTimeAsync(1);
      expect(outcome).toMatchObject({ code: -32603, data: { reason: 'input_request_timeout' } });
      expect(pending.size).toBe(0);
    } finally {
      jest.useRealTimers();
    }
  });

  it('refuses a request asked once the mount is closing with shutting_down, leaving nothing waiting', async () => {
    const closing = new MountClosing({ shutdownGraceMs: 10_000 });
    const pending = requests({}, closing);
    closing.onModuleDestroy();
    expect(() => pending.open(undefined)).toThrow(expect.objectContaining({ data: expect.objectContaining({ reason: 'shutting_down' }) }));
    expect(pending.size).toBe(0);
  });
});
