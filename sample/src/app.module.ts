import { Module } from '@nestjs/common';
import { McpModule } from '../../lib/index.js';
import { EchoTool } from './echo/echo.tool.js';
import { WeatherTool } from './weather/weather.tool.js';

@Module({
  imports: [
    McpModule.forRoot({
      path: 'mcp',
      serverInfo: { name: 'nest-mcp-sample', version: '0.1.0', title: 'nest-mcp sample server' },
      instructions: 'A sample server: call "echo" to get your text back, or "weather" for a region\'s (made-up) weather.',
    }),
  ],
  providers: [EchoTool, WeatherTool],
})
export class AppModule {}
