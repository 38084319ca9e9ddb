import 'reflect-metadata';
import type { Server } from 'node:http';
import type { ServerOptions as Http2ServerOptions } from 'node:http2';

import { Module, type ControllerOptions, type INestApplication, type NestApplicationOptions, type Provider, type Type } from '@nestjs/common';
import { FastifyAdapter } from '@nestjs/platform-fastify';
import { Test, type TestingModuleBuilder } from '@nestjs/testing';

import { McpModule, type McpModuleOptions } from '../../lib/index.js';

/** The HTTP adapters a mount is proven on; the e2e suites run once per adapter (jest.config.js projects). */
export type TestAdapter = 'express' | 'fastify';

/** The adapter of this test run: `MCP_TEST_ADAPTER`, Express when unset. */
export const TEST_ADAPTER: TestAdapter = process.env.MCP_TEST_ADAPTER === 'fastify' ? 'fastify' : 'express';

/**
 * A Fastify adapter (serving HTTP/2 when asked) for an app given Nest's `forceCloseConnections`: Fastify's own option too, as Nest 11's
 * FastifyAdapter ignores Nest's (Nest 12's honours it). Without it a connection no request has come on yet (one a
 * fetch client opens after an aborted call, say) holds the server's close: Node's `server.close()` ends idle
 * connections only once a request was served on them.
 */
export const fastifyAdapter = (forceCloseConnections: unknown, http2: boolean | Http2ServerOptions = false): FastifyAdapter =>
  new FastifyAdapter({
    ...(forceCloseConnections === true ? { forceCloseConnections: true } : {}),
    ...(http2 ? { http2: true, ...(typeof http2 === 'object' && { http: http2 }) } : {}),
  } as never);

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
  /** The mount's API version (the `version` extra). */
  version?: ControllerOptions['version'];
  /** Makes the mount global (`isGlobal`). */
  global?: boolean;
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
  /**
   * Serves HTTP/2 in cleartext (h2c, prior knowledge) on Fastify (`http2: true`), whatever the run's adapter: Nest
   * has no HTTP/2 on Express. An object is the HTTP/2 server's options (`maxHeaderListPairs`, `settings`).
   */
  http2?: boolean | Http2ServerOptions;
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
        ...(spec.version !== undefined && { version: spec.version }),
        ...(spec.global && { isGlobal: true }),
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
  // forceCloseConnections: a test client's spare keep-alive socket must not hold the server open at close.
  const appOptions: NestApplicationOptions = { bodyParser: false, logger: false, forceCloseConnections: true, ...(spec.appOptions ?? {}) };
  const app =
    spec.http2 || TEST_ADAPTER === 'fastify'
      ? moduleRef.createNestApplication(fastifyAdapter(appOptions.forceCloseConnections, spec.http2), appOptions)
      : moduleRef.createNestApplication(appOptions);
  spec.configure?.(app);
  await app.listen(0, spec.listenHost ?? '127.0.0.1');
  const server = app.getHttpServer() as Server;
  return { app, server, close: () => app.close() };
}
