import 'reflect-metadata';
import type { Server } from 'node:http';

import { Module, type INestApplication, type Provider, type Type } from '@nestjs/common';
import { Test, type TestingModuleBuilder } from '@nestjs/testing';

import { McpModule, type McpModuleOptions } from '../../lib/index.js';

/** What a test app is made of. */
export interface TestAppSpec {
  /** Tool (and other) providers of the host module. */
  providers?: Provider[];
  /** Controllers of the host module. */
  controllers?: Type<unknown>[];
  /** Module options beyond the defaults below. */
  options?: Partial<McpModuleOptions>;
  /** The mount path. */
  path?: string;
  /** Extra imports (another mount, say). */
  imports?: NonNullable<Parameters<typeof Module>[0]>['imports'];
  /** Adjusts the testing module before it compiles (fault injection through `overrideProvider`). */
  override?: (builder: TestingModuleBuilder) => TestingModuleBuilder;
  /** Nest application options (`bodyParser: false` unless given). */
  appOptions?: Record<string, unknown>;
  /** Configures the application before it listens (host middleware, say). */
  configure?: (app: INestApplication) => void;
  /** The address to listen on. @default '127.0.0.1' */
  listenHost?: string;
}

/** A running test app: the Nest application and its HTTP server (listening on an ephemeral loopback port). */
export interface TestApp {
  app: INestApplication;
  server: Server;
  close(): Promise<void>;
}

/**
 * Boots a real Nest application with one MCP mount, the documented way (`bodyParser: false`), listening on
 * 127.0.0.1 (unless `listenHost` says otherwise) so requests arrive over real HTTP on loopback.
 */
export async function createTestApp(spec: TestAppSpec = {}): Promise<TestApp> {
  @Module({
    imports: [
      McpModule.forRoot({
        path: spec.path ?? 'mcp',
        serverInfo: { name: 'test-server', version: '1.0.0' },
        telemetryLogger: false,
        ...spec.options,
      }),
      ...(spec.imports ?? []),
    ],
    providers: spec.providers ?? [],
    controllers: spec.controllers ?? [],
  })
  class TestHostModule {}

  const builder = Test.createTestingModule({ imports: [TestHostModule] });
  const moduleRef = await (spec.override ? spec.override(builder) : builder).compile();
  const app = moduleRef.createNestApplication({ bodyParser: false, logger: false, ...(spec.appOptions ?? {}) });
  spec.configure?.(app);
  await app.listen(0, spec.listenHost ?? '127.0.0.1');
  const server = app.getHttpServer() as Server;
  return { app, server, close: () => app.close() };
}
