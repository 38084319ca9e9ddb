import { describe, expect, it } from '@jest/globals';

import { ElicitationSchemaCache } from '../../lib/mrtr/elicitation-schema-cache.js';
import { PendingInputRequests } from '../../lib/mrtr/pending-input-requests.js';
import { StreamedInputs } from '../../lib/mrtr/streamed-inputs.js';
import { resolveOptions } from '../../lib/options/resolve-options.js';
import { ProtocolSchema } from '../../lib/protocol/protocol-schema.js';
import type { AnswerStream } from '../../lib/response/answer-stream.js';
import { MountClosing } from '../../lib/response/mount-closing.js';

const checks = { protocol: await ProtocolSchema.vendored(), schemas: new ElicitationSchemaCache() };

describe('StreamedInputs', () => {
  it('rejects an input request its stream does not carry, and withdraws it: nothing waits for an answer that cannot come', async () => {
    const pending = new PendingInputRequests(resolveOptions({ serverInfo: { name: 's', version: '1' } }, 'mcp'), new MountClosing({ shutdownGraceMs: 10_000 }));
    const sent: unknown[] = [];
    const answer = {
      open: true,
      signal: new AbortController().signal,
      requireStream: () => undefined,
      request: (request: unknown) => (sent.push(request), false),
    } as unknown as AnswerStream;
    const inputs = new StreamedInputs({ ...checks, answer, pending, subject: undefined, heldBytes: () => 0, revision: '2025-11-25', capabilities: undefined });
    await expect(inputs.ask('roots', undefined, undefined)).rejects.toThrow("roots/list cannot reach the client: the call's stream closed");
    expect(sent).toEqual([expect.objectContaining({ id: expect.stringMatching(/^mcp-input-/), method: 'roots/list' })]);
    expect(pending.size).toBe(0);
  });
});
