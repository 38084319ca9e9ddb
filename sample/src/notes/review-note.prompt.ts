import { McpPrompt, McpMethodError, quoted, type McpPromptHandler } from '../../../lib/index.js';
import { NotesStore } from './notes.store.js';

const TONES = ['gentle', 'blunt'];

/** A prompt: asks the model to review one note, embedding the note as a resource; both arguments complete. */
@McpPrompt({
  name: 'review_note',
  title: 'Review a note',
  description: 'Asks the model to review one note for clarity.',
  arguments: [
    { name: 'title', description: 'The note to review', required: true, complete: 'completeTitle' },
    { name: 'tone', description: 'gentle (the default) or blunt', complete: (value) => TONES.filter((tone) => tone.startsWith(value)) },
  ],
})
export class ReviewNotePrompt implements McpPromptHandler {
  constructor(private readonly notes: NotesStore) {}

  get(args: Record<string, string>) {
    const title = args.title!;
    const text = this.notes.get(title);
    if (text === undefined) throw new McpMethodError(-32602, `No note titled ${quoted(title)}.`, { reason: 'unknown_note', available: this.notes.titles() }, 400);
    return [
      { role: 'user', content: { type: 'resource', resource: { uri: `notes://notes/${encodeURIComponent(title)}`, mimeType: 'text/plain', text } } },
      { role: 'user', content: { type: 'text', text: `Review the note above for clarity. Be ${args.tone ?? 'gentle'}.` } },
    ] as const;
  }

  completeTitle(value: string) {
    return this.notes.titles().filter((title) => title.startsWith(value));
  }
}
