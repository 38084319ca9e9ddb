import 'reflect-metadata';
import type { Server } from 'node:http';

import { afterAll, beforeAll } from '@jest/globals';
import { Test } from '@nestjs/testing';

import { AppModule } from '../../sample/src/app.module.js';
import { fastifyAdapter, TEST_ADAPTER, type TestApp } from './test-app.js';

/** The sample app's tools, as tools/list names them. */
export const SAMPLE_TOOL_NAMES = ['delete_note', 'echo', 'help', 'reindex_notes', 'tasks', 'weather'];

/**
 * The URIs the sample's resources/list lists: the index, then each note its template lists, by title; `deleted`
 * says whether a test's `delete_note` has taken "ideas" away by then.
 */
export const sampleResourceUris = (deleted: boolean): string[] => [
  'notes://index',
  ...['groceries', ...(deleted ? [] : ['ideas']), 'todo'].map((title) => `notes://notes/${title}`),
];

/** Boots the sample app (`sample/src/app.module.ts`) on this run's adapter, body parser on, on an ephemeral loopback port. */
export async function startSampleApp(): Promise<TestApp> {
  const moduleRef = await Test.createTestingModule({ imports: [AppModule] }).compile();
  const options = { logger: false as const, forceCloseConnections: true };
  const app = TEST_ADAPTER === 'fastify' ? moduleRef.createNestApplication(fastifyAdapter(options.forceCloseConnections), options) : moduleRef.createNestApplication(options);
  await app.listen(0, '127.0.0.1');
  return { app, server: app.getHttpServer() as Server, close: () => app.close() };
}

/** Runs the sample app for the enclosing `describe` block; the returned function gives its HTTP server. */
export function useSampleApp(): () => Server {
  let sample: TestApp | undefined;
  beforeAll(async () => {
    sample = await startSampleApp();
  });
  afterAll(() => sample?.close());
  return () => sample!.server;
}
