import { Inject, Injectable } from '@nestjs/common';

import { McpEventBus } from '../../../lib/index.js';

/**
 * The sample's notes, in memory: title → text, plus a word index rebuilt by `reindex_notes`. A deletion is
 * published on the MCP event bus, so clients listening for `notes://index` or the note hear of it.
 */
@Injectable()
export class NotesStore {
  private readonly notes = new Map<string, string>([
    ['groceries', 'milk eggs bread'],
    ['ideas', 'a tool that asks before it deletes'],
    ['todo', 'write the docs, ship the release'],
  ]);
  private readonly index = new Map<string, number>();

  constructor(@Inject(McpEventBus) private readonly bus: McpEventBus) {}

  titles(): string[] {
    return [...this.notes.keys()].sort();
  }

  has(title: string): boolean {
    return this.notes.has(title);
  }

  get(title: string): string | undefined {
    return this.notes.get(title);
  }

  async delete(title: string): Promise<void> {
    this.notes.delete(title);
    this.index.delete(title);
    await this.bus.publish({ kind: 'resourceUpdated', uri: 'notes://index' });
    await this.bus.publish({ kind: 'resourceUpdated', uri: `notes://notes/${encodeURIComponent(title)}` });
    await this.bus.publish({ kind: 'resourcesListChanged' });
  }

  /** Indexes one note (its word count, for the sample); false when it no longer exists. */
  reindex(title: string): boolean {
    const text = this.notes.get(title);
    if (text === undefined) return false;
    this.index.set(title, text.split(/\s+/).filter(Boolean).length);
    return true;
  }
}
