import { describe, expect, it } from '@jest/globals';

import { accept, callTool } from '../support/mrtr-client.js';
import { useSampleApp } from '../support/sample-app.js';
import { sseMessages } from '../support/sse.js';

describe('the sample app: a confirmation before a destructive action, and progress', () => {
  const server = useSampleApp();

  it('delete_note asks first, keeps the note on decline, deletes it on an explicit yes', async () => {
    const first = await callTool(server(), 'delete_note', { title: 'groceries' });
    expect(first.body.result.resultType).toBe('input_required');
    expect(first.body.result.inputRequests.confirm_delete).toMatchObject({
      method: 'elicitation/create',
      params: { message: 'Delete the note "groceries"? This cannot be undone.' },
    });
    const declined = await callTool(
      server(),
      'delete_note',
      { title: 'groceries' },
      {
        inputResponses: { confirm_delete: { action: 'decline' } },
        requestState: first.body.result.requestState,
      },
    );
    expect(declined.body.result.content[0].text).toBe('Kept "groceries".');

    const again = await callTool(server(), 'delete_note', { title: 'groceries' });
    const confirmed = await callTool(
      server(),
      'delete_note',
      { title: 'groceries' },
      {
        inputResponses: { confirm_delete: accept({ confirm: true }) },
        requestState: again.body.result.requestState,
      },
    );
    expect(confirmed.body.result.content[0].text).toBe('Deleted "groceries".');

    const gone = await callTool(server(), 'delete_note', { title: 'groceries' });
    expect(gone.body.result).toMatchObject({ isError: true, content: [{ text: 'No note titled "groceries".' }] });
  });

  it('reindex_notes streams increasing progress (and debug logs when asked), then the result', async () => {
    const res = await callTool(server(), 'reindex_notes', {}, { meta: { progressToken: 'reindex', 'io.modelcontextprotocol/logLevel': 'debug' } });
    expect(res.headers['content-type']).toBe('text/event-stream');
    const messages = sseMessages(res.text);
    const progress = messages.filter((m) => m.method === 'notifications/progress').map((m) => (m.params as { progress: number }).progress);
    expect(progress.length).toBeGreaterThanOrEqual(3);
    expect(progress).toEqual([...progress].sort((a, b) => a - b));
    expect(new Set(progress).size).toBe(progress.length);
    expect(messages.some((m) => m.method === 'notifications/message')).toBe(true);
    expect((messages.at(-1) as any).result.content[0].text).toMatch(/^Reindexed \d+ notes\.$/);
  });

  it('reindex_notes answers plain JSON without a progress token', async () => {
    const res = await callTool(server(), 'reindex_notes', {});
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.body.result.content[0].text).toMatch(/^Reindexed \d+ notes\.$/);
  });
});
