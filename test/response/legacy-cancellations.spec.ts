import { describe, expect, it } from '@jest/globals';

import type { McpRequestRecord } from '../../lib/contracts/request-record.js';
import type { AnswerStream } from '../../lib/response/answer-stream.js';
import { LegacyCancellations } from '../../lib/response/legacy-cancellations.js';
import { collectGarbage } from '../support/collect-garbage.js';

const SESSION = '0b6e3f2a-4c1d-4e8f-9a7b-2d5c8e1f3a6b';

/** A legacy request of the session, as the POST chain leaves it; its id a flat string, as JSON.parse makes one. */
const legacyRequest = (id: string | number, subject?: string): McpRequestRecord =>
  ({
    era: 'legacy',
    kind: 'request',
    id,
    sessionIdContents: { id: SESSION, version: '2025-11-25', capabilities: {} },
    ...(subject && { auth: { subject } }),
  }) as McpRequestRecord;

/** An answer that stays open until `close`, and notes a cancellation. */
function openAnswer(): { answer: AnswerStream; close: () => void; cancelled: () => boolean } {
  let close!: () => void;
  const closed = new Promise<void>((resolve) => (close = resolve));
  let cancelled = false;
  const answer = { whenClosed: () => closed, endForCancellation: () => void (cancelled = true) } as unknown as AnswerStream;
  return { answer, close, cancelled: () => cancelled };
}

const cancellation = (requestId: unknown, subject?: string): McpRequestRecord =>
  ({
    era: 'legacy',
    kind: 'notification',
    method: 'notifications/cancelled',
    message: { params: { requestId } },
    sessionIdContents: { id: SESSION, version: '2025-11-25', capabilities: {} },
    ...(subject && { auth: { subject } }),
  }) as McpRequestRecord;

describe('LegacyCancellations', () => {
  it("ends the answer a cancellation names by its client's session, subject and id (a string id and a number apart)", async () => {
    const tracked = new LegacyCancellations();
    const byString = openAnswer();
    const byNumber = openAnswer();
    const another = openAnswer();
    tracked.track(legacyRequest('7'), byString.answer);
    tracked.track(legacyRequest(7), byNumber.answer);
    tracked.track(legacyRequest(7, 'ada'), another.answer);
    expect(tracked.size).toBe(3);
    tracked.hear(cancellation(7));
    expect([byString.cancelled(), byNumber.cancelled(), another.cancelled()]).toEqual([false, true, false]);
    tracked.hear(cancellation(7, 'ada'));
    expect(another.cancelled()).toBe(true);
    for (const { close } of [byString, byNumber, another]) close();
    await new Promise((resolve) => setImmediate(resolve));
    expect(tracked.size).toBe(0);
  });

  it('ends nothing on another notification that names a request id: only notifications/cancelled cancels', () => {
    const tracked = new LegacyCancellations();
    const answer = openAnswer();
    tracked.track(legacyRequest(7), answer.answer);
    tracked.hear({ ...cancellation(7), method: 'notifications/progress' });
    expect(answer.cancelled()).toBe(false);
    answer.close();
  });

  it('holds no copy of a long request id: tracking 20 answers whose ids are 1 MB each adds far less than their 20 MB', async () => {
    const records = Array.from({ length: 20 }, (_, i) => legacyRequest(JSON.parse(JSON.stringify(`${i}-${'x'.repeat(1_000_000)}`)) as string));
    const answers = records.map(() => openAnswer());
    const tracked = new LegacyCancellations();
    await collectGarbage();
    const before = process.memoryUsage().heapUsed;
    records.forEach((record, i) => tracked.track(record, answers[i]!.answer));
    await collectGarbage();
    expect(process.memoryUsage().heapUsed - before).toBeLessThan(2_000_000);
    expect(tracked.size).toBe(20);
    tracked.hear(cancellation(records[3]!.id));
    expect(answers.map((a) => a.cancelled())).toEqual(answers.map((_, i) => i === 3));
    for (const { close } of answers) close();
  });

  it('keeps a later request that reuses an id under way: the earlier one closing leaves it tracked, counted once', async () => {
    const tracked = new LegacyCancellations();
    const earlier = openAnswer();
    const later = openAnswer();
    tracked.track(legacyRequest(7), earlier.answer);
    tracked.track(legacyRequest(7), later.answer);
    expect(tracked.size).toBe(1);
    earlier.close();
    await new Promise((resolve) => setImmediate(resolve));
    expect(tracked.size).toBe(1);
    tracked.hear(cancellation(7));
    expect([earlier.cancelled(), later.cancelled()]).toEqual([false, true]);
    later.close();
    await new Promise((resolve) => setImmediate(resolve));
    expect(tracked.size).toBe(0);
  });
});
