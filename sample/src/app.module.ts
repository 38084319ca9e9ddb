import { Module } from '@nestjs/common';

import { McpModule } from '../../lib/index.js';
import { EchoTool } from './echo/echo.tool.js';
import { DeleteNoteTool } from './notes/delete-note.tool.js';
import { NoteResource } from './notes/note.resource.js';
import { NotesIndexResource } from './notes/notes-index.resource.js';
import { NotesStore } from './notes/notes.store.js';
import { ReindexNotesTool } from './notes/reindex-notes.tool.js';
import { ReviewNotePrompt } from './notes/review-note.prompt.js';
import { TasksModule } from './tasks/tasks.module.js';
import { WeatherTool } from './weather/weather.tool.js';

const stateSecret = process.env.MCP_REQUEST_STATE_SECRET;

@Module({
  imports: [
    McpModule.forRoot({
      path: 'mcp',
      serverInfo: { name: 'nest-mcp-sample', version: '0.1.0', title: 'nest-mcp sample server' },
      instructions:
        'A sample server: "echo" returns your text, "tasks" manages tasks, "weather" gives a region\'s (made-up) weather, "delete_note" deletes a note after asking the user, "reindex_notes" reports progress. Read notes as resources (notes://index, notes://notes/{title}); the "review_note" prompt reviews one. Call "help" to learn any tool.',
      // Every instance behind a load balancer needs the same secret (docs/mrtr.md); without one, a per-process secret.
      ...(stateSecret ? { requestState: { secrets: [stateSecret] } } : {}),
    }),
    TasksModule,
  ],
  providers: [EchoTool, WeatherTool, NotesStore, DeleteNoteTool, ReindexNotesTool, NotesIndexResource, NoteResource, ReviewNotePrompt],
})
export class AppModule {}
