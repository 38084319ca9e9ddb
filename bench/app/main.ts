// Starts the bench app: MCP at http://HOST:PORT/mcp, on Express or (BENCH_ADAPTER=fastify) on Fastify.
import 'reflect-metadata';
import type { INestApplication } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter } from '@nestjs/platform-fastify';

import { serverEnv } from '../common/bench-data.js';
import { benchAppModule } from './bench-app.module.js';

/** Builds the app the way a consumer would (defaults, logger off) and listens. */
async function bootstrap(): Promise<void> {
  const env = serverEnv();
  const module = benchAppModule({ tools: env.tools });
  const app: INestApplication =
    env.adapter === 'fastify' ? await NestFactory.create(module, new FastifyAdapter(), { logger: false }) : await NestFactory.create(module, { logger: false });
  await app.listen(env.port, env.host);
  console.log(`bench app (${env.adapter}, BENCH_TOOLS=${env.tools}) listening on http://${env.host}:${env.port}/mcp`);
}

void bootstrap();
