import { execFile, spawn } from 'node:child_process';
import { mkdir, mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';

import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';

const run = promisify(execFile);
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
  await app.listen(0, '127.0.0.1');
  console.log(String(app.getHttpServer().address().port));
}
void main();
`;

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

/** Starts the compiled app and resolves with its port. */
function start(entry: string, cwd: string): Promise<{ port: number; stop: () => void }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [entry], { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (chunk) => {
      out += String(chunk);
      const port = /^(\d+)\n/.exec(out)?.[1];
      if (port) resolve({ port: Number(port), stop: () => child.kill() });
    });
    child.stderr.on('data', (chunk) => (err += String(chunk)));
    child.on('exit', (code) => reject(new Error(`the consumer exited with ${code}: ${err}`)));
  });
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
 * A CommonJS consumer of the packed package: its tarball installed, its app compiled by tsc, then run with `node`.
 * (Nest 12 is itself ES modules only, so a CommonJS Nest app type-checks with node10 or nodenext, never node16.)
 */
describe('a CommonJS app using the packed package', () => {
  let dir: string;

  beforeAll(async () => {
    // Inside the repository, so Node and tsc find the peer dependencies (@nestjs/*) in its node_modules.
    dir = await mkdtemp(path.join(ROOT, '.consumer-'));
    const { stdout } = await run('npm', ['pack', '--silent', '--pack-destination', dir], { cwd: ROOT, timeout: 180_000 });
    const tarball = path.join(dir, stdout.trim().split('\n').at(-1)!);
    await mkdir(path.join(dir, 'node_modules/nest-mcp'), { recursive: true });
    await run('tar', ['xzf', tarball, '-C', path.join(dir, 'node_modules/nest-mcp'), '--strip-components=1']);
    await writeFile(path.join(dir, 'package.json'), JSON.stringify({ name: 'cjs-consumer', private: true }));
    await writeFile(path.join(dir, 'main.ts'), APP);
  }, 240_000);
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it.each(['node10', 'nodenext'] as const)(
    'type-checks, compiles to CommonJS and serves MCP (moduleResolution %s)',
    async (resolution) => {
      await writeFile(path.join(dir, `tsconfig.${resolution}.json`), JSON.stringify(tsconfig(resolution)));
      await run(process.execPath, [TSC, '-p', `tsconfig.${resolution}.json`], { cwd: dir, timeout: 120_000 });
      const app = await start(`dist-${resolution}/main.js`, dir);
      try {
        const res = await fetch(`http://127.0.0.1:${app.port}/mcp`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-11-25' },
          body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'echo', arguments: { text: 'from CommonJS' } } }),
        });
        expect(await res.json()).toEqual({ jsonrpc: '2.0', id: 1, result: { content: [{ type: 'text', text: 'from CommonJS' }] } });
      } finally {
        app.stop();
      }
    },
    120_000,
  );

  it('keeps the written name of every class and function it exports (Nest names providers by them)', async () => {
    const { stdout } = await run(
      process.execPath,
      [
        '-e',
        "const api = require('nest-mcp'); for (const [k, v] of Object.entries(api)) if (typeof v === 'function' && v.name !== k) console.log(k + ' is named ' + v.name);",
      ],
      { cwd: dir, timeout: 60_000 },
    );
    expect(stdout).toBe('');
    // Internal classes too: no class expression is left under a name esbuild gave it (`class X2`, `class _X`).
    const bundle = await readFile(path.join(dir, 'node_modules/nest-mcp/dist/bundle/index.js'), 'utf8');
    expect([...bundle.matchAll(/var (\w+) = (?:\w+ = )?class (\1\d+|_\1)\b/g)].map((m) => m[2])).toEqual([]);
    expect(bundle).toMatch(/var TaskRuns = class TaskRuns\b/);
  }, 60_000);

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
});
