import { execFile, spawn } from 'node:child_process';
import { once } from 'node:events';
import { cp, mkdir, mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { request } from 'node:http';
import { createServer, type AddressInfo } from 'node:net';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { promisify } from 'node:util';

import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';

import { NODE_HEADER_LINES_READ } from '../../lib/util/header-lines.js';
import { REVISIONS, failures, requiredScenarios, runSuite } from '../support/conformance-suite.js';
import { ensureRunner, NODE_22 } from '../support/node22-runner.js';

const run = promisify(execFile);
/** What a command printed, whether or not it exited 0 (a failing run's output is what a test reads). */
const outputOf = (file: string, args: string[], cwd: string): Promise<string> =>
  run(file, args, { cwd, timeout: 120_000 }).then(
    ({ stdout }) => stdout,
    (failed: { stdout: string }) => failed.stdout,
  );
const ROOT = path.resolve(import.meta.dirname, '../..');
const TSC = path.join(ROOT, 'node_modules/typescript/bin/tsc');

/** A CommonJS Nest app, as `nest new` makes one (no "type": "module"), using the package as its README says. */
const APP = `
import 'reflect-metadata';
import { Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { McpModule, McpTool, type McpPlainTool } from 'nest-mcp';

@McpTool({ name: 'echo', description: 'Echoes text.', inputSchema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] } })
class EchoTool implements McpPlainTool {
  run(args: { text: string }) {
    return args.text;
  }
}

@Module({ imports: [McpModule.forRoot({ serverInfo: { name: 'cjs-consumer', version: '1.0.0' } })], providers: [EchoTool] })
class AppModule {}

async function main(): Promise<void> {
  const app = await NestFactory.create(AppModule, { logger: false });
  await app.listen(Number(process.env.PORT), '127.0.0.1');
}
void main();
`;

/**
 * Nest 11 as its apps have it (CommonJS, Express 5 or Fastify 5), installed from the registry beside the package:
 * the floor of the peer range.
 */
const NEST_11 = ['11.1.0', ['@nestjs/common', '@nestjs/core', '@nestjs/platform-express', '@nestjs/platform-fastify']] as const;

/** A CommonJS Nest 11 app on the adapter `ADAPTER` names, which closes on SIGTERM (`enableShutdownHooks`). */
const APP_11 = `
import 'reflect-metadata';
import { Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter } from '@nestjs/platform-fastify';
import { McpModule, McpTool, type McpPlainTool } from 'nest-mcp';

@McpTool({ name: 'echo', description: 'Echoes text.', inputSchema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] } })
class EchoTool implements McpPlainTool {
  run(args: { text: string }) {
    return args.text;
  }
}

@Module({ imports: [McpModule.forRoot({ serverInfo: { name: 'nest11-consumer', version: '1.0.0' } })], providers: [EchoTool] })
class AppModule {}

async function main(): Promise<void> {
  const options = { logger: false as const };
  const app = process.env.ADAPTER === 'fastify' ? await NestFactory.create(AppModule, new FastifyAdapter(), options) : await NestFactory.create(AppModule, options);
  app.enableShutdownHooks();
  await app.listen(Number(process.env.PORT), '127.0.0.1');
}
void main();
`;

/**
 * The e2e set-up `nest new` gave a Nest 11 app (CommonJS; Jest's CommonJS runtime with ts-jest; TypeScript 5.7,
 * nodenext): an app module serving an echo tool, and a test calling it in the 2025 and 2026-07-28 eras.
 */
const NEST_11_E2E: Record<string, string> = {
  'src/echo.tool.ts': `
import { Injectable } from '@nestjs/common';
import { McpTool, type McpPlainTool } from 'nest-mcp';

const inputSchema = { type: 'object', properties: { text: { type: 'string' }, replyTo: { type: 'string', format: 'email' } }, required: ['text'] };

@McpTool({ name: 'echo', description: 'Echoes text.', inputSchema })
@Injectable()
export class EchoTool implements McpPlainTool {
  run(args: { text: string }) {
    return args.text;
  }
}
`,
  'src/app.module.ts': `
import { Module } from '@nestjs/common';
import { McpModule } from 'nest-mcp';
import { EchoTool } from './echo.tool';

@Module({ imports: [McpModule.forRoot({ serverInfo: { name: 'nest11-e2e', version: '1.0.0' } })], providers: [EchoTool] })
export class AppModule {}
`,
  'test/app.e2e-spec.ts': `
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { INestApplication } from '@nestjs/common';
import { Test, TestingModule } from '@nestjs/testing';
import request from 'supertest';
import { AppModule } from './../src/app.module';

const call = { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'echo', arguments: { text: 'from Jest' } } };
const meta = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': {},
  'io.modelcontextprotocol/clientInfo': { name: 'jest', version: '1.0.0' },
};

describe('AppModule (e2e)', () => {
  let app: INestApplication;
  beforeEach(async () => {
    const moduleFixture: TestingModule = await Test.createTestingModule({ imports: [AppModule] }).compile();
    app = moduleFixture.createNestApplication();
    await app.init();
  });
  afterEach(() => app.close());

  it('calls echo, 2025-11-25', async () => {
    const res = await request(app.getHttpServer()).post('/mcp').set('Accept', 'application/json, text/event-stream').set('MCP-Protocol-Version', '2025-11-25').send(call);
    expect(res.body).toEqual({ jsonrpc: '2.0', id: 1, result: { content: [{ type: 'text', text: 'from Jest' }] } });
  });

  it('refuses an argument that breaks its format (ajv-formats, required by the CommonJS build)', async () => {
    const bad = { ...call, params: { name: 'echo', arguments: { text: 'x', replyTo: 'not an address' } } };
    const res = await request(app.getHttpServer()).post('/mcp').set('Accept', 'application/json, text/event-stream').set('MCP-Protocol-Version', '2025-11-25').send(bad);
    expect(res.body.result.isError).toBe(true);
    expect(res.body.result.content[0].text).toContain('email');
  });

  it('calls echo, 2026-07-28', async () => {
    const res = await request(app.getHttpServer())
      .post('/mcp')
      .set('Accept', 'application/json, text/event-stream')
      .set('MCP-Protocol-Version', '2026-07-28')
      .set('MCP-Method', 'tools/call')
      .set('MCP-Name', 'echo')
      .send({ ...call, params: { ...call.params, _meta: meta } });
    expect(res.body.result.content).toEqual([{ type: 'text', text: 'from Jest' }]);
  });
});
`,
  'test/jest-e2e.json': JSON.stringify({
    moduleFileExtensions: ['js', 'json', 'ts'],
    rootDir: '.',
    testEnvironment: 'node',
    testRegex: '.e2e-spec.ts$',
    transform: { '^.+\\.(t|j)s$': ['ts-jest', { tsconfig: '<rootDir>/../tsconfig.scaffold.json' }] },
  }),
  'tsconfig.scaffold.json': JSON.stringify({
    compilerOptions: {
      module: 'nodenext',
      moduleResolution: 'nodenext',
      resolvePackageJsonExports: true,
      esModuleInterop: true,
      isolatedModules: true,
      emitDecoratorMetadata: true,
      experimentalDecorators: true,
      target: 'ES2023',
      rootDir: '.',
      skipLibCheck: false,
      strictNullChecks: true,
      noImplicitAny: false,
      types: ['node'],
    },
    include: ['src', 'test'],
  }),
};

/** Opens a 2026-07-28 listen stream on the app at \`port\`: resolves with its first chunk (the acknowledgment) and when it ends. */
function openListenStream(port: number): Promise<{ first: string; ended: Promise<string> }> {
  const meta = {
    'io.modelcontextprotocol/protocolVersion': '2026-07-28',
    'io.modelcontextprotocol/clientCapabilities': {},
    'io.modelcontextprotocol/clientInfo': { name: 'listener', version: '1.0.0' },
  };
  const body = JSON.stringify({ jsonrpc: '2.0', id: 'listen', method: 'subscriptions/listen', params: { _meta: meta, notifications: { toolsListChanged: true } } });
  const headers = {
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
    'mcp-protocol-version': '2026-07-28',
    'mcp-method': 'subscriptions/listen',
  };
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, method: 'POST', path: '/mcp', agent: false, headers }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      const ended = new Promise<string>((done) => res.on('close', () => done(text)));
      res.once('data', (chunk: string) => resolve({ first: chunk, ended }));
      res.on('data', (chunk: string) => (text += chunk));
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** tsconfig of a CommonJS consumer for one TypeScript module resolution. */
const tsconfig = (resolution: 'node10' | 'nodenext') => ({
  compilerOptions: {
    module: resolution === 'node10' ? 'commonjs' : resolution,
    moduleResolution: resolution,
    target: 'ES2022',
    outDir: `dist-${resolution}`,
    strict: true,
    experimentalDecorators: true,
    emitDecoratorMetadata: true,
    skipLibCheck: false,
    types: ['node'],
    ignoreDeprecations: '6.0',
  },
  files: ['main.ts'],
});

/** A port no one listens on now. */
async function freePort(): Promise<number> {
  const probe = createServer().listen(0, '127.0.0.1');
  await once(probe, 'listening');
  const { port } = probe.address() as AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

/**
 * Starts a compiled app listening on `PORT` (a free port given it) under a Node binary, with `env` beside, and
 * resolves once it answers there; `exit` resolves when it exits.
 */
async function start(
  entry: string,
  cwd: string,
  node = process.execPath,
  env: Record<string, string> = {},
): Promise<{ port: number; stop: () => void; signal: (name: NodeJS.Signals) => void; exit: Promise<unknown>; stderr: () => string }> {
  const port = await freePort();
  const child = spawn(node, [entry], { cwd, env: { ...process.env, ...env, PORT: String(port) }, stdio: ['ignore', 'ignore', 'pipe'] });
  let err = '';
  let exited: number | null | undefined;
  child.stderr.on('data', (chunk) => (err += String(chunk)));
  const exit = once(child, 'exit');
  child.on('exit', (code) => (exited = code));
  for (let tries = 0; tries < 200; tries++) {
    if (exited !== undefined) throw new Error(`the consumer exited with ${exited}: ${err}`);
    const answered = await fetch(`http://127.0.0.1:${port}/mcp`).then(
      () => true,
      () => false,
    );
    if (answered) return { port, stop: () => child.kill(), signal: (name) => child.kill(name), exit, stderr: () => err };
    await sleep(100);
  }
  child.kill();
  throw new Error(`the consumer did not answer on port ${port}: ${err}`);
}

/** A legacy tools/call of `echo` on the app at `port`: the JSON answer. */
async function echo(port: number, text: string): Promise<unknown> {
  const res = await fetch(`http://127.0.0.1:${port}/mcp`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-11-25' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'echo', arguments: { text } } }),
  });
  return res.json();
}

/**
 * The same call sent with exactly `lines` header lines (fillers pad it; Node's client adds `Connection: close`):
 * the status and the parsed body.
 */
function echoWithLines(port: number, text: string, lines: number): Promise<{ status: number; body: unknown }> {
  const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'echo', arguments: { text } } });
  const headers = [
    ['Host', `127.0.0.1:${port}`],
    ['Content-Type', 'application/json'],
    ['Accept', 'application/json, text/event-stream'],
    ['MCP-Protocol-Version', '2025-11-25'],
    ['Content-Length', String(Buffer.byteLength(body))],
  ];
  const fillers = Array.from({ length: lines - headers.length - 1 }, (_, i) => [`X-Fill-${i}`, '1']);
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, method: 'POST', path: '/mcp', agent: false, headers: [...headers, ...fillers].flat() }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text ? JSON.parse(text) : undefined }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** The README's quick start: its first TypeScript block, cut into files at each `// name.ts` line that opens one. */
function quickStartFiles(readme: string): Record<string, string> {
  const block = /```ts\n([\s\S]*?)```/.exec(readme.slice(readme.indexOf('## Quick start')))?.[1] ?? '';
  const files: Record<string, string> = {};
  let file: string | undefined;
  for (const line of block.split('\n')) {
    const opened = /^\/\/ ([\w.-]+\.ts)\b/.exec(line)?.[1];
    if (opened) file = opened;
    else if (file) files[file] = `${files[file] ?? ''}${line}\n`;
  }
  return files;
}

/** The README's `tsconfig.json` for an app set up by hand: the first JSON block under Install. */
function handMadeTsconfig(readme: string): unknown {
  const install = readme.slice(readme.indexOf('## Install'), readme.indexOf('## Quick start'));
  const block = /```json\n([\s\S]*?)```/.exec(install)?.[1];
  if (block === undefined) throw new Error("the README's Install section shows no tsconfig.json");
  return JSON.parse(block);
}

/** A Markdown page without its fenced code blocks (a `#` in a shell block is no heading, a `](` in code no link). */
const prose = (markdown: string) => markdown.replace(/^```[\s\S]*?^```/gm, '');

/** A page's links to its own package: the target path (empty for the page itself) and the anchor, if any. */
const localLinks = (markdown: string) =>
  [...prose(markdown).matchAll(/\]\(([^)\s]+)\)/g)]
    .map((m) => m[1]!)
    .filter((href) => !/^[a-z]+:/i.test(href))
    .map((href) => ({ target: href.split('#')[0]!, anchor: href.split('#')[1] }));

/** The anchors GitHub and npm give a page's headings: lower case, punctuation dropped, spaces to hyphens, repeats numbered. */
function headingAnchors(markdown: string): Set<string> {
  const seen = new Map<string, number>();
  for (const [, heading] of prose(markdown).matchAll(/^#{1,6} +(.+?)\s*$/gm)) {
    const slug = heading!
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, '')
      .replace(/\s/g, '-');
    seen.set(slug, (seen.get(slug) ?? -1) + 1);
    if (seen.get(slug)! > 0) seen.set(`${slug}-${seen.get(slug)}`, 0);
  }
  return new Set(seen.keys());
}

/**
 * The packed package as an app gets it: its tarball installed, CommonJS apps (and the README's quick start, as
 * CommonJS and as ES modules) compiled by tsc, then run with `node`. (Nest 12 is itself ES modules only, so a
 * CommonJS Nest app type-checks with node10 or nodenext, never node16.)
 */
describe('the packed package, installed in an app', () => {
  let dir: string;
  let tarball: string;

  beforeAll(async () => {
    // Inside the repository, so Node and tsc find the peer dependencies (@nestjs/*) in its node_modules.
    dir = await mkdtemp(path.join(ROOT, '.consumer-'));
    const { stdout } = await run('npm', ['pack', '--silent', '--pack-destination', dir], { cwd: ROOT, timeout: 180_000 });
    tarball = path.join(dir, stdout.trim().split('\n').at(-1)!);
    await mkdir(path.join(dir, 'node_modules/nest-mcp'), { recursive: true });
    await run('tar', ['xzf', tarball, '-C', path.join(dir, 'node_modules/nest-mcp'), '--strip-components=1']);
    await writeFile(path.join(dir, 'package.json'), JSON.stringify({ name: 'cjs-consumer', private: true }));
    await writeFile(path.join(dir, 'main.ts'), APP);
  }, 240_000);
  afterAll(() => rm(dir, { recursive: true, force: true }));

  const builds = new Map<string, Promise<unknown>>();
  /** Type-checks and compiles the consumer for one module resolution, once. */
  const build = (resolution: 'node10' | 'nodenext') => {
    if (!builds.has(resolution))
      builds.set(
        resolution,
        writeFile(path.join(dir, `tsconfig.${resolution}.json`), JSON.stringify(tsconfig(resolution))).then(() =>
          run(process.execPath, [TSC, '-p', `tsconfig.${resolution}.json`], { cwd: dir, timeout: 120_000 }),
        ),
      );
    return builds.get(resolution)!;
  };

  it.each(['node10', 'nodenext'] as const)(
    'type-checks, compiles to CommonJS and serves MCP (moduleResolution %s)',
    async (resolution) => {
      await build(resolution);
      const app = await start(`dist-${resolution}/main.js`, dir);
      try {
        expect(await echo(app.port, 'from CommonJS')).toEqual({ jsonrpc: '2.0', id: 1, result: { content: [{ type: 'text', text: 'from CommonJS' }] } });
      } finally {
        app.stop();
      }
    },
    120_000,
  );

  it('serves MCP under Node 22, whose parser answers 431 itself past the header lines it reads: a request of exactly that many is served', async () => {
    await Promise.all([ensureRunner(), build('nodenext')]);
    const app = await start('dist-nodenext/main.js', dir, NODE_22);
    try {
      expect(await echo(app.port, 'from Node 22')).toEqual({ jsonrpc: '2.0', id: 1, result: { content: [{ type: 'text', text: 'from Node 22' }] } });
      // Nothing past them was dropped, so the mount has no cut to refuse (a Node that drops lines would have).
      expect(await echoWithLines(app.port, 'every line read', NODE_HEADER_LINES_READ)).toEqual({
        status: 200,
        body: { jsonrpc: '2.0', id: 1, result: { content: [{ type: 'text', text: 'every line read' }] } },
      });
      expect((await echoWithLines(app.port, 'one line more', NODE_HEADER_LINES_READ + 1)).status).toBe(431);
    } finally {
      app.stop();
    }
  }, 300_000);

  let installedTsc7: Promise<string> | undefined;
  /** TypeScript 7 (npm's latest, the native compiler, what `npm i -D typescript` installs), installed once: its tsc. */
  const typescript7 = () =>
    (installedTsc7 ??= (async () => {
      const ts7 = path.join(dir, 'ts7');
      await mkdir(ts7);
      await writeFile(path.join(ts7, 'package.json'), JSON.stringify({ name: 'ts7', private: true }));
      await run('npm', ['install', '--no-audit', '--no-fund', '--no-package-lock', 'typescript@7.0.2'], { cwd: ts7, timeout: 240_000 });
      const tsc7 = path.join(ts7, 'node_modules/typescript/bin/tsc');
      expect((await run(process.execPath, [tsc7, '-v'], { cwd: dir })).stdout).toMatch(/^Version 7\./);
      return tsc7;
    })());

  it.each([
    ['commonjs', 6],
    ['module', 6],
    ['commonjs', 7],
    ['module', 7],
  ] as const)(
    'compiles the README quick start, as written, with the README\'s tsconfig.json in an app of "type": "%s" (TypeScript %d), and serves its echo tool',
    async (type, major) => {
      const tsc = major === 7 ? await typescript7() : TSC;
      const readme = await readFile(path.join(dir, 'node_modules/nest-mcp/README.md'), 'utf8');
      const files = quickStartFiles(readme);
      expect(Object.keys(files).sort()).toEqual(['app.module.ts', 'echo.tool.ts', 'main.ts']);
      const appDir = path.join(dir, `quickstart-${type}-ts${major}`);
      await mkdir(path.join(appDir, 'src'), { recursive: true });
      await writeFile(path.join(appDir, 'package.json'), JSON.stringify({ name: `quickstart-${type}`, private: true, type }));
      for (const [name, code] of Object.entries(files)) await writeFile(path.join(appDir, 'src', name), code);
      await writeFile(path.join(appDir, 'tsconfig.json'), JSON.stringify(handMadeTsconfig(readme)));
      await run(process.execPath, [tsc, '-p', 'tsconfig.json'], { cwd: appDir, timeout: 120_000 });
      const app = await start('dist/main.js', appDir);
      try {
        expect(await echo(app.port, 'from the quick start')).toEqual({ jsonrpc: '2.0', id: 1, result: { content: [{ type: 'text', text: 'from the quick start' }] } });
      } finally {
        app.stop();
      }
    },
    300_000,
  );

  it.each([
    ['required', 'index.cjs', "const api = require('nest-mcp');"],
    ['imported', 'index.js', "const api = await import('nest-mcp');"],
  ])(
    'keeps the written name of every class and function it exports, %s (Nest names providers by them)',
    async (_, file, load) => {
      const check = "for (const [k, v] of Object.entries(api)) if (typeof v === 'function' && v.name !== k) console.log(k + ' is named ' + v.name);";
      const { stdout } = await run(
        process.execPath,
        ['--input-type=module', '-e', `import { createRequire } from 'node:module'; const require = createRequire(process.cwd() + '/'); ${load} ${check}`],
        {
          cwd: dir,
          timeout: 60_000,
        },
      );
      expect(stdout).toBe('');
      // Internal classes too: no class expression is left under a name esbuild gave it (`class X2`, `class _X`).
      const bundle = await readFile(path.join(dir, 'node_modules/nest-mcp/dist/bundle', file), 'utf8');
      expect([...bundle.matchAll(/var (\w+) = (?:\w+ = )?class (\1\d+|_\1)\b/g)].map((m) => m[2])).toEqual([]);
      expect(bundle).toMatch(/var TaskRuns = class TaskRuns\b/);
    },
    60_000,
  );

  it("serves, from an ES module app, a tool decorated through require() (the two copies share the decorators' metadata)", async () => {
    const mixed = path.join(dir, 'mixed');
    await mkdir(mixed, { recursive: true });
    await writeFile(path.join(mixed, 'package.json'), JSON.stringify({ name: 'mixed', private: true, type: 'module' }));
    await writeFile(
      path.join(mixed, 'tool.cjs'),
      `const { McpTool } = require('nest-mcp');
class EchoTool { run(args) { return args.text; } }
McpTool({ name: 'echo', description: 'Echoes text.', inputSchema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] } })(EchoTool);
module.exports = { EchoTool, loaded: Object.keys(require.cache).filter((file) => file.includes('nest-mcp')) };`,
    );
    await writeFile(
      path.join(mixed, 'main.js'),
      `import 'reflect-metadata';
import { createRequire } from 'node:module';
import { Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { McpModule } from 'nest-mcp';
const { EchoTool, loaded } = createRequire(import.meta.url)('./tool.cjs');
class AppModule {}
Module({ imports: [McpModule.forRoot({ serverInfo: { name: 'mixed', version: '1.0.0' } })], providers: [EchoTool] })(AppModule);
const app = await NestFactory.create(AppModule, { logger: false });
console.error(JSON.stringify(loaded.map((file) => file.slice(file.indexOf('nest-mcp/')))));
await app.listen(Number(process.env.PORT), '127.0.0.1');`,
    );
    const app = await start('main.js', mixed);
    try {
      expect(await echo(app.port, 'across the copies')).toEqual({ jsonrpc: '2.0', id: 1, result: { content: [{ type: 'text', text: 'across the copies' }] } });
    } finally {
      app.stop();
    }
    expect(JSON.parse(app.stderr().trim())).toEqual(['nest-mcp/dist/bundle/index.cjs']);
  }, 60_000);

  it('passes the official conformance suite as a CommonJS app: the conformance fixture built against the package', async () => {
    const fixture = path.join(dir, 'conformance-cjs');
    await cp(path.join(ROOT, 'conformance/src'), path.join(fixture, 'src'), { recursive: true });
    for (const file of await readdir(path.join(fixture, 'src'))) {
      const source = path.join(fixture, 'src', file);
      await writeFile(source, (await readFile(source, 'utf8')).replaceAll("from '../../lib/index.js'", "from 'nest-mcp'"));
    }
    await writeFile(path.join(fixture, 'package.json'), JSON.stringify({ name: 'conformance-cjs', private: true }));
    const { compilerOptions } = tsconfig('nodenext');
    await writeFile(path.join(fixture, 'tsconfig.json'), JSON.stringify({ compilerOptions: { ...compilerOptions, outDir: 'dist', rootDir: 'src' }, include: ['src'] }));
    await Promise.all([ensureRunner(), run(process.execPath, [TSC, '-p', 'tsconfig.json'], { cwd: fixture, timeout: 120_000 })]);
    const app = await start('dist/main.js', fixture);
    try {
      for (const revision of REVISIONS) {
        const results = await runSuite(`http://127.0.0.1:${app.port}/mcp`, revision);
        const failing = (await requiredScenarios(revision))
          .map((scenario) => ({ scenario, failures: results.has(scenario) ? failures(results.get(scenario)!) : ['not run'] }))
          .filter((cell) => cell.failures.length > 0);
        expect({ revision, failing }).toEqual({ revision, failing: [] });
      }
    } finally {
      app.stop();
    }
  }, 360_000);

  it('runs its CommonJS build and the validators it requires in strict mode, as the ES module runs', async () => {
    for (const file of ['dist/bundle/index.cjs', 'dist/schema/mcp-2026-07-28.validators.cjs']) {
      const text = await readFile(path.join(dir, 'node_modules/nest-mcp', file), 'utf8');
      expect(text.split('\n')[0]).toBe('"use strict";');
    }
  });

  it('ships every file its README, SECURITY.md, CHANGELOG.md and docs link to, with the heading each anchor names', async () => {
    const packageDir = path.join(dir, 'node_modules/nest-mcp');
    const docs = (await readdir(path.join(packageDir, 'docs'))).filter((name) => name.endsWith('.md')).map((name) => `docs/${name}`);
    expect(docs.length).toBeGreaterThan(5);
    const pages = new Map<string, string>();
    for (const page of ['README.md', 'SECURITY.md', 'CHANGELOG.md', ...docs]) pages.set(page, await readFile(path.join(packageDir, page), 'utf8'));
    const broken: string[] = [];
    let anchors = 0;
    for (const [page, markdown] of pages) {
      for (const { target, anchor } of localLinks(markdown)) {
        const file = target === '' ? page : path.join(path.dirname(page), target);
        const linked = pages.get(file) ?? (await readFile(path.join(packageDir, file), 'utf8').catch(() => undefined));
        if (linked === undefined) broken.push(`${page} -> ${target}`);
        else if (anchor !== undefined && file.endsWith('.md') && ++anchors && !headingAnchors(linked).has(anchor)) broken.push(`${page} -> ${target}#${anchor}`);
      }
    }
    expect(anchors).toBeGreaterThan(10);
    expect(broken).toEqual([]);
  });

  it('type-checks under moduleResolution bundler (an app whose bundler resolves the package)', async () => {
    const config = tsconfig('nodenext');
    const bundler = { ...config, compilerOptions: { ...config.compilerOptions, module: 'preserve', moduleResolution: 'bundler', noEmit: true } };
    await writeFile(path.join(dir, 'tsconfig.bundler.json'), JSON.stringify(bundler));
    const { stdout } = await run(process.execPath, [TSC, '-p', 'tsconfig.bundler.json'], { cwd: dir, timeout: 120_000 });
    expect(stdout).toBe('');
  }, 120_000);

  it("type-checks under TypeScript 7 (npm's latest, the native compiler), moduleResolution nodenext and bundler", async () => {
    const tsc7 = await typescript7();
    const options = tsconfig('nodenext').compilerOptions;
    for (const [name, resolution] of Object.entries({ nodenext: {}, bundler: { module: 'preserve', moduleResolution: 'bundler' } })) {
      await writeFile(path.join(dir, `tsconfig.ts7-${name}.json`), JSON.stringify({ compilerOptions: { ...options, ...resolution, noEmit: true }, files: ['main.ts'] }));
      expect(await outputOf(process.execPath, [tsc7, '-p', `tsconfig.ts7-${name}.json`], dir)).toBe('');
    }
  }, 300_000);

  describe('in a CommonJS Nest 11 app, Nest 11 installed from the registry', () => {
    let app11: string;
    beforeAll(async () => {
      app11 = path.join(dir, 'nest11');
      await mkdir(app11);
      await writeFile(path.join(app11, 'package.json'), JSON.stringify({ name: 'nest11-consumer', private: true }));
      await writeFile(path.join(app11, 'main.ts'), APP_11);
      const [version, names] = NEST_11;
      const install = ['install', '--no-audit', '--no-fund', '--ignore-scripts', '--no-package-lock', tarball, ...names.map((name) => `${name}@${version}`)];
      const scaffold = ['@nestjs/testing@11.1.0', 'typescript@5.7.3'];
      await run('npm', [...install, ...scaffold, 'reflect-metadata@0.2.2', 'rxjs@7.8.2'], { cwd: app11, timeout: 240_000 });
      for (const [name, text] of Object.entries(NEST_11_E2E)) {
        await mkdir(path.dirname(path.join(app11, name)), { recursive: true });
        await writeFile(path.join(app11, name), text);
      }
      await writeFile(path.join(app11, 'tsconfig.json'), JSON.stringify(tsconfig('node10')));
      await run(process.execPath, [TSC, '-p', 'tsconfig.json'], { cwd: app11, timeout: 120_000 });
    }, 360_000);

    it("passes the scaffold's e2e test under Jest's CommonJS runtime with ts-jest (which cannot require an ES module)", async () => {
      const jest = path.join(ROOT, 'node_modules/jest/bin/jest.js');
      const stdout = await outputOf(process.execPath, [jest, '--config', 'test/jest-e2e.json', '--ci', '--json'], app11);
      const report = JSON.parse(stdout) as { numPassedTests: number; numFailedTests: number; testResults: { message: string }[] };
      expect(report.testResults.map((suite) => suite.message)).toEqual(['']);
      expect([report.numPassedTests, report.numFailedTests]).toEqual([3, 0]);
    }, 120_000);

    it("type-checks under the scaffold's TypeScript 5.7 (nodenext), which types a require of the package only as CommonJS", async () => {
      const tsc57 = path.join(app11, 'node_modules/typescript/bin/tsc');
      expect((await run(process.execPath, [tsc57, '-v'], { cwd: app11 })).stdout).toMatch(/^Version 5\.7\./);
      const stdout = await outputOf(process.execPath, [tsc57, '-p', 'tsconfig.scaffold.json', '--noEmit'], app11);
      expect(stdout).toBe('');
    }, 120_000);

    it.each(['express', 'fastify'])(
      'serves MCP on %s, and closes on SIGTERM with a listen stream open, which ends with its result',
      async (adapter) => {
        const app = await start('dist-node10/main.js', app11, process.execPath, { ADAPTER: adapter });
        try {
          expect(await echo(app.port, 'from Nest 11')).toEqual({ jsonrpc: '2.0', id: 1, result: { content: [{ type: 'text', text: 'from Nest 11' }] } });
          const stream = await openListenStream(app.port);
          expect(stream.first).toContain('notifications/subscriptions/acknowledged');
          const began = Date.now();
          app.signal('SIGTERM');
          expect(await Promise.race([app.exit.then(() => 'exited'), sleep(5_000, 'still running')])).toBe('exited');
          expect(Date.now() - began).toBeLessThan(5_000);
          expect(await stream.ended).toMatch(/"id":"listen","result"/);
        } finally {
          app.stop();
        }
      },
      60_000,
    );
  });
});
