import { Injectable } from '@nestjs/common';

/** The sample's notes, in memory: title → text, plus a word index rebuilt by `reindex_notes`. */
@Injectable()
export class NotesStore {
  private readonly notes = new Map<string, string>([
    ['groceries', 'milk eggs bread'],
    ['ideas', 'a tool that asks before it deletes'],
    ['todo', 'write the docs, ship the release'],
  ]);
  private readonly index = new Map<string, number>();

  titles(): string[] {
    return [...this.notes.keys()].sort();
  }

  has(title: string): boolean {
    return this.notes.has(title);
  }

  delete(title: string): void {
    this.notes.delete(title);
    this.index.delete(title);
  }

  /** Indexes one note (its word count, for the sample); false when it no longer exists. */
  reindex(title: string): boolean {
    const text = this.notes.get(title);
    if (text === undefined) return false;
    this.index.set(title, text.split(/\s+/).filter(Boolean).length);
    return true;
  }
}
