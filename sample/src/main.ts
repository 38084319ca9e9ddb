import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';

import { AppModule } from './app.module.js';

/** Starts the sample: MCP at http://HOST:PORT/mcp (HOST defaults to 127.0.0.1, PORT to 3000). */
async function bootstrap(): Promise<void> {
  const app = await NestFactory.create(AppModule);
  app.enableShutdownHooks(['SIGTERM', 'SIGINT']); // named: Deno refuses a listener on some of the signals Nest knows
  const port = Number(process.env.PORT ?? 3000);
  const host = process.env.HOST ?? '127.0.0.1';
  await app.listen(port, host);
  console.log(`MCP server listening on http://${host}:${port}/mcp`);
}

void bootstrap();
