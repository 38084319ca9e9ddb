import { McpResource, type McpResourceHandler } from '../../../lib/index.js';
import { NotesStore } from './notes.store.js';

/** A fixed resource: the titles of every note, as JSON. */
@McpResource({ uri: 'notes://index', name: 'notes-index', title: 'All notes', description: 'The title of every note.', mimeType: 'application/json' })
export class NotesIndexResource implements McpResourceHandler {
  constructor(private readonly notes: NotesStore) {}

  read() {
    return JSON.stringify(this.notes.titles());
  }
}
