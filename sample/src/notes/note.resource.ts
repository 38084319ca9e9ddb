import { McpResourceTemplate, resourceNotFound, type McpResourceTemplateHandler, type McpUriVariables } from '../../../lib/index.js';
import { NotesStore } from './notes.store.js';

/** A resource template: one note per URI `notes://notes/{title}`; the title completes from the notes there are. */
@McpResourceTemplate({
  uriTemplate: 'notes://notes/{title}',
  name: 'note',
  title: 'A note',
  description: 'The text of one note, by title.',
  mimeType: 'text/plain',
  complete: { title: 'completeTitle' },
})
export class NoteResource implements McpResourceTemplateHandler {
  constructor(private readonly notes: NotesStore) {}

  read(uri: string, { title }: McpUriVariables) {
    const text = title === undefined ? undefined : this.notes.get(title);
    if (text === undefined) throw resourceNotFound(uri);
    return text;
  }

  /** Every note, so that resources/list shows them beside the index. */
  list() {
    return this.notes.titles().map((title) => ({ uri: `notes://notes/${encodeURIComponent(title)}`, name: title }));
  }

  completeTitle(value: string) {
    return this.notes.titles().filter((title) => title.startsWith(value));
  }
}
