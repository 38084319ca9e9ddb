import { existsSync, readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';

import { describe, expect, it } from '@jest/globals';
import ts from 'typescript';

// Every `ts` block of the README and docs/ that imports from 'nest-mcp' is a file a reader may copy as it is: it
// must compile against the library and the sample modules it imports. A block may hold several files, each opened
// by a `// name.ts` comment line; the others are fragments (their imports left out) and are not compiled here.
// An import marked `// yours` names the reader's own module, and a package this checkout does not install
// (`ioredis`) is left untyped: neither is an error, nor is what is untyped through them.

const ROOT = path.resolve(import.meta.dirname, '../..');
const DOCS = ['README.md', ...readdirSync(path.join(ROOT, 'docs')).map((name) => `docs/${name}`)].filter((name) => name.endsWith('.md'));
const SAMPLE = path.join(ROOT, 'sample/src');

/** The sample's modules by file name (`tasks.repository.ts`), which a snippet imports as `./tasks.repository.js`. */
const sampleModules = new Map<string, string>(
  readdirSync(SAMPLE, { recursive: true, encoding: 'utf8' })
    .filter((name) => name.endsWith('.ts'))
    .map((name) => [path.basename(name), path.join(SAMPLE, name)]),
);

interface Snippet {
  readonly doc: string;
  readonly line: number;
  /** The block's files: a virtual path (under the repository, so packages resolve) and its text. */
  readonly files: ReadonlyMap<string, string>;
}

/** The blocks of a document that import from the package, each split into its files. */
function snippetsOf(doc: string): Snippet[] {
  const text = readFileSync(path.join(ROOT, doc), 'utf8');
  const found: Snippet[] = [];
  for (const match of text.matchAll(/^```ts\n([\s\S]*?)^```/gm)) {
    const block = match[1]!;
    if (!block.includes("from 'nest-mcp'")) continue;
    const line = text.slice(0, match.index).split('\n').length;
    const dir = path.join(ROOT, '.doc-snippets', `${doc.replace(/[/.]/g, '_')}-${line}`);
    const parts = block.split(/^(?=\/\/ (?:[\w.-]+\/)*[\w.-]+\.ts\b)/m);
    const files = new Map<string, string>();
    parts.forEach((part, i) => {
      const named = /^\/\/ (?:[\w.-]+\/)*([\w.-]+\.ts)\b/.exec(part)?.[1];
      files.set(path.join(dir, named ?? `snippet-${i}.ts`), part);
    });
    for (const [file, source] of files)
      files.set(
        file,
        source.replace(/from '(nest-mcp|\.\/[\w.-]+\.js)'/g, (whole, spec: string) => {
          if (spec === 'nest-mcp') return `from '${path.join(ROOT, 'lib/index.js')}'`;
          const name = path.basename(spec).replace(/\.js$/, '.ts');
          if (files.has(path.join(dir, name))) return whole;
          const sample = sampleModules.get(name);
          return sample ? `from '${sample.replace(/\.ts$/, '.js')}'` : whole;
        }),
      );
    found.push({ doc, line, files });
  }
  return found;
}

/** The repository's compiler options, as the typecheck uses them, without emitting. */
function compilerOptions(): ts.CompilerOptions {
  const config = ts.getParsedCommandLineOfConfigFile(path.join(ROOT, 'tsconfig.json'), { noEmit: true }, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => undefined });
  return { ...config!.options, noEmit: true, declaration: false, sourceMap: false };
}

/** Whether a diagnostic is about what a snippet may leave to the reader (see above). */
function leftToReader(diagnostic: ts.Diagnostic): boolean {
  const file = diagnostic.file!;
  const text = file.text;
  const line = text.slice(text.lastIndexOf('\n', diagnostic.start!) + 1, text.indexOf('\n', diagnostic.start!));
  const missing = /^Cannot find module '([^']+)'/.exec(ts.flattenDiagnosticMessageText(diagnostic.messageText, ' '))?.[1];
  if (missing !== undefined) return missing.startsWith('.') ? line.includes('// yours') : !existsSync(path.join(ROOT, 'node_modules', missing));
  const IMPLICIT_ANY = 7006;
  return diagnostic.code === IMPLICIT_ANY && [...text.matchAll(/from '([^'.][^']*)'/g)].some(([, spec]) => !existsSync(path.join(ROOT, 'node_modules', spec!)));
}

describe('the code in the README and docs/', () => {
  const snippets = DOCS.flatMap(snippetsOf);

  it('holds whole files to compile (the README quick start among them)', () => {
    expect(snippets.some((s) => s.doc === 'README.md' && [...s.files.keys()].some((f) => f.endsWith('app.module.ts')))).toBe(true);
    expect(new Set(snippets.map((s) => s.doc)).size).toBeGreaterThanOrEqual(5);
  });

  it('compiles as written, against the library and the sample modules it imports', () => {
    const virtual = new Map(snippets.flatMap((s) => [...s.files]));
    const options = compilerOptions();
    const host = ts.createCompilerHost(options);
    const { fileExists, directoryExists, readFile, getSourceFile } = host;
    const dirs = new Set([...virtual.keys()].map((file) => path.dirname(file)));
    host.fileExists = (file) => virtual.has(file) || fileExists(file);
    host.directoryExists = (dir) => dirs.has(dir) || dir === path.join(ROOT, '.doc-snippets') || directoryExists!(dir);
    host.readFile = (file) => virtual.get(file) ?? readFile(file);
    host.getSourceFile = (file, language, onError) => {
      const source = virtual.get(file);
      return source === undefined ? getSourceFile(file, language, onError) : ts.createSourceFile(file, source, language);
    };
    const program = ts.createProgram([...virtual.keys()], options, host);
    const problems = ts
      .getPreEmitDiagnostics(program)
      .filter((d) => d.file && virtual.has(d.file.fileName) && !leftToReader(d))
      .map((d) => ({
        at: d.file!.fileName.slice(ROOT.length + 1),
        line: d.file!.getLineAndCharacterOfPosition(d.start!).line + 1,
        message: ts.flattenDiagnosticMessageText(d.messageText, ' '),
      }));
    expect(problems).toEqual([]);
  }, 60_000);
});
