// Times module init in this process: `NestFactory.create` + `app.init()` (Express, logger off), printed as JSON.
// `node init-time.js mcp`: the bench app with 100 action tools of 10 actions each (INIT_TOOLS, INIT_ACTIONS);
// `node init-time.js bare`: the floor module, for reference. One measurement per process (a cold start each).
import 'reflect-metadata';
import { performance } from 'node:perf_hooks';

import { NestFactory } from '@nestjs/core';

import { floorModule } from '../floor/floor.module.js';
import { benchAppModule } from './bench-app.module.js';

/** Builds the module first (class generation is import-time work in a real app), then times create + init. */
async function measure(): Promise<void> {
  const kind = process.argv[2] === 'bare' ? 'bare' : 'mcp';
  const tools = Number(process.env.INIT_TOOLS ?? 100);
  const actionsEach = Number(process.env.INIT_ACTIONS ?? 10);
  const module = kind === 'bare' ? floorModule() : benchAppModule({ actionTools: { tools, actionsEach } });
  const start = performance.now();
  const app = await NestFactory.create(module, { logger: false });
  await app.init();
  const ms = performance.now() - start;
  await app.close();
  console.log(JSON.stringify({ kind, tools: kind === 'mcp' ? tools : 0, actionsEach: kind === 'mcp' ? actionsEach : 0, ms }));
}

void measure();
