import { isMethodError, JSON_RPC_CODES, McpTool, quoted, type McpContext, type McpPlainTool } from '../../../lib/index.js';
import { NotesStore } from './notes.store.js';

/**
 * A destructive tool that asks first. The first call ends with an input-required result carrying the
 * confirmation form; the client shows it, then retries with the answer, and the tool runs again from the top:
 * this time `ctx.elicit` returns the answer and the note is deleted only on an explicit yes.
 */
@McpTool({
  name: 'delete_note',
  description: 'Deletes a note by title, after asking the user to confirm.',
  inputSchema: {
    type: 'object',
    properties: { title: { type: 'string', maxLength: 200, description: 'Title of the note to delete' } },
    required: ['title'],
    additionalProperties: false,
  },
  annotations: { destructiveHint: true, idempotentHint: true, openWorldHint: false },
})
export class DeleteNoteTool implements McpPlainTool {
  constructor(private readonly notes: NotesStore) {}

  async run(args: { title: string }, ctx: McpContext) {
    if (!this.notes.has(args.title)) return { isError: true, content: [{ type: 'text', text: `No note titled ${quoted(args.title)}.` }] };
    const answer = await ctx
      .elicit(
        {
          message: `Delete the note "${args.title}"? This cannot be undone.`,
          requestedSchema: {
            type: 'object',
            properties: { confirm: { type: 'boolean', title: 'Delete it', description: 'Check to delete the note' } },
            required: ['confirm'],
          },
        },
        { key: 'confirm_delete' },
      )
      .catch((e: unknown) => {
        // A client that declared no elicitation cannot ask its user: say so to the model rather than fail bare.
        if (isMethodError(e) && e.code === JSON_RPC_CODES.missingRequiredClientCapability) return undefined;
        throw e;
      });
    if (answer === undefined)
      return { isError: true, content: [{ type: 'text', text: `Kept "${args.title}": this client cannot ask the user to confirm. Ask them to delete it themselves.` }] };
    if (answer.action !== 'accept' || answer.content?.confirm !== true) return `Kept "${args.title}".`;
    await this.notes.delete(args.title);
    return `Deleted "${args.title}".`;
  }
}
