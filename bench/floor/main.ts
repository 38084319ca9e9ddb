// Starts the floor (BENCH_FLOOR_CHECKS=1: the checking floor): POST http://HOST:PORT/mcp, on Express or (BENCH_ADAPTER=fastify) on Fastify.
import 'reflect-metadata';
import type { INestApplication } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter } from '@nestjs/platform-fastify';

import { serverEnv } from '../common/bench-data.js';
import { floorModule } from './floor.module.js';

/** Builds the floor with Nest's defaults (its JSON body parser on, logger off) and listens. */
async function bootstrap(): Promise<void> {
  const env = serverEnv();
  const module = floorModule(env.tools, env.checksArguments);
  const app: INestApplication =
    env.adapter === 'fastify' ? await NestFactory.create(module, new FastifyAdapter(), { logger: false }) : await NestFactory.create(module, { logger: false });
  await app.listen(env.port, env.host);
  console.log(`${env.checksArguments ? 'checking floor' : 'floor'} (${env.adapter}) listening on http://${env.host}:${env.port}/mcp`);
}

void bootstrap();
