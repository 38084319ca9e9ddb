import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';

import { ConformanceModule } from './app.module.js';

/** Starts the conformance fixture: MCP at http://127.0.0.1:PORT/mcp (PORT defaults to 3001). */
async function bootstrap(): Promise<void> {
  const app = await NestFactory.create(ConformanceModule, { logger: ['error', 'warn'] });
  app.enableShutdownHooks(['SIGTERM', 'SIGINT']); // named: Deno refuses a listener on some of the signals Nest knows
  const port = Number(process.env.PORT ?? 3001);
  await app.listen(port, process.env.HOST ?? '127.0.0.1');
  console.log(`MCP conformance fixture listening on http://127.0.0.1:${port}/mcp`);
}

void bootstrap();
