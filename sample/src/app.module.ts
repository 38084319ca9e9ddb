import { Module } from '@nestjs/common';
import { McpModule } from '../../lib/index.js';
import { EchoTool } from './echo/echo.tool.js';
import { TasksModule } from './tasks/tasks.module.js';

@Module({
  imports: [
    McpModule.forRoot({
      path: 'mcp',
      serverInfo: { name: 'nest-mcp-sample', version: '0.1.0', title: 'nest-mcp sample server' },
      instructions: 'A sample server: call "echo" to get your text back, or "tasks" to manage tasks. Call "help" to learn any tool.',
    }),
    TasksModule,
  ],
  providers: [EchoTool],
})
export class AppModule {}
