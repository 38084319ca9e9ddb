// Bundles the compiled library (dist/, from tsc) twice: into one ES module, dist/bundle/index.js, and into one
// CommonJS module, dist/bundle/index.cjs, which the package exports to `import` and to `require` (so a runtime that
// cannot require an ES module, such as Jest's CommonJS runtime, loads it): one file loads in a fraction of the time
// of the ~150 modules tsc writes. Dependencies stay external. The per-file .js output is then removed (its .d.ts
// files stay: they type the ES bundle; a .d.cts copy of each types the CommonJS one); dist/schema stays, read at
// run time relative to the bundle (`../schema/`, as from any dist/<floor>/ file).
import { readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { build } from 'esbuild';

const out = process.argv[2] ?? 'dist';
const esm = join(out, 'bundle', 'index.js');
const cjs = join(out, 'bundle', 'index.cjs');
const common = { bundle: true, platform: 'node', packages: 'external', logLevel: 'warning' };
/**
 * CommonJS has no `import.meta.url` (the library resolves its schema files against it) and Jest's CommonJS runtime no
 * `import()`: the first is the file's own URL, the second a `require`.
 */
const commonJs = {
  format: 'cjs',
  define: { 'import.meta.url': 'importMetaUrl' },
  // Strict from its first line: a banner before esbuild's own "use strict" would make that one a plain expression.
  banner: { js: '"use strict";\nconst importMetaUrl = require(\'node:url\').pathToFileURL(__filename).href;' },
  supported: { 'dynamic-import': false },
};
await build({ ...common, entryPoints: [join(out, 'index.js')], format: 'esm', outfile: esm });
await build({ ...common, ...commonJs, entryPoints: [join(out, 'index.js')], outfile: cjs });

// Classes keep the names they are written with: Nest names providers and modules by them in errors and logs.
// esbuild renames a class inside its own class expression (`var X = class X2 { … }` when decorated,
// `class _X` when its body names it), the one name in scope in its body; it is given back here. (esbuild's keepNames would do it by wrapping every function in a
// naming call that runs each time the function is created, closures made per request included.)
function withClassNames(text) {
  for (const [, outer, inner] of text.matchAll(/var (\w+) = (?:\w+ = )?class (\1\d+|_\1)\b/g)) {
    if (new RegExp(`(var|let|const|function|class) ${inner}\\b`, 'g').exec(text.replace(`class ${inner}`, '')))
      throw new Error(`bundle: ${inner} names something else besides the class ${outer}; cannot give the class its name back`);
    text = text.replace(new RegExp(`\\b${inner}\\b`, 'g'), outer);
  }
  return text;
}
writeFileSync(esm, withClassNames(readFileSync(esm, 'utf8')));

// The validators loaded on demand (`import('../schema/….validators.js')`, an ES module) are required from the
// CommonJS bundle in a CommonJS build of their own, beside them.
const lazy = /"(\.\.\/schema\/[\w.-]+\.validators)\.js"/g;
const cjsText = withClassNames(readFileSync(cjs, 'utf8'));
const required = [...cjsText.matchAll(lazy)].map(([, file]) => file);
if (required.length === 0) throw new Error('bundle: the CommonJS bundle requires no precompiled validators; has the schema loading moved?');
writeFileSync(cjs, cjsText.replace(lazy, '"$1.cjs"'));
for (const file of new Set(required)) {
  const source = join(out, 'bundle', `${file}.js`);
  // Generated code, printed without esbuild's indentation (which would make it half as large again to load).
  await build({ ...common, ...commonJs, entryPoints: [source], outfile: source.replace(/\.js$/, '.cjs'), minifyWhitespace: true });
}

// The declarations again as CommonJS ones (.d.cts naming .cjs), so TypeScript types a `require` of the package as
// what it loads.
for (const file of readdirSync(out, { recursive: true, encoding: 'utf8' })) {
  if (!file.endsWith('.d.ts')) continue;
  const declarations = readFileSync(join(out, file), 'utf8');
  writeFileSync(join(out, file.replace(/\.d\.ts$/, '.d.cts')), declarations.replace(/((?:from|import\()\s*['"]\.{1,2}\/[^'"]*)\.js(['"])/g, '$1.cjs$2'));
}

for (const file of readdirSync(out, { recursive: true, encoding: 'utf8' })) {
  if (file.endsWith('.js') && !file.startsWith('bundle') && !file.startsWith('schema')) rmSync(join(out, file));
}
