import { setTimeout as sleep } from 'node:timers/promises';

import { McpTool, type McpContext, type McpPlainTool } from '../../../lib/index.js';
import { NotesStore } from './notes.store.js';

/** How long indexing one note takes in the sample, so progress is visible. */
const STEP_MS = 50;

/**
 * A long-running tool that reports progress. With a `progressToken` in the request's `_meta`, the answer becomes
 * an SSE stream of `notifications/progress` followed by the result; without one (nor a log level asking for its
 * debug lines, which a legacy request gets by default: `legacyLogLevel`), the same code answers plain JSON. It
 * stops early when the client goes away (`ctx.signal`).
 */
@McpTool({
  name: 'reindex_notes',
  description: 'Rebuilds the search index of all notes, reporting progress.',
  inputSchema: { type: 'object', properties: {}, additionalProperties: false },
  annotations: { idempotentHint: true, openWorldHint: false },
})
export class ReindexNotesTool implements McpPlainTool {
  constructor(private readonly notes: NotesStore) {}

  async run(_args: Record<string, never>, ctx: McpContext) {
    const titles = this.notes.titles();
    for (const [done, title] of titles.entries()) {
      ctx.progress(done, titles.length, `Indexing "${title}"`);
      await sleep(STEP_MS, undefined, { signal: ctx.signal }).catch(() => undefined);
      if (ctx.signal.aborted) return 'Cancelled.'; // nobody reads this: the client has gone
      this.notes.reindex(title);
      ctx.log.debug(`indexed "${title}"`);
    }
    ctx.progress(titles.length, titles.length, 'Done');
    return `Reindexed ${titles.length} notes.`;
  }
}
