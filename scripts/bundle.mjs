// Bundles the compiled library (dist/, from tsc) into one ES module, dist/bundle/index.js, which the package
// exports: one file loads in a fraction of the time of the ~150 modules tsc writes. Dependencies stay external.
// The per-file .js output is then removed (its .d.ts files stay: they type the bundle); dist/schema stays, read at
// run time relative to the bundle (`../schema/`, as from any dist/<floor>/ file).
import { readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { build } from 'esbuild';

const out = process.argv[2] ?? 'dist';
const bundle = join(out, 'bundle', 'index.js');
await build({ entryPoints: [join(out, 'index.js')], bundle: true, format: 'esm', platform: 'node', packages: 'external', outfile: bundle, logLevel: 'warning' });

// Classes keep the names they are written with: Nest names providers and modules by them in errors and logs.
// esbuild renames a class inside its own class expression (`var X = class X2 { … }` when decorated,
// `class _X` when its body names it), the one name in scope in its body; it is given back here. (esbuild's keepNames would do it by wrapping every function in a
// naming call that runs each time the function is created, closures made per request included.)
let text = readFileSync(bundle, 'utf8');
for (const [, outer, inner] of text.matchAll(/var (\w+) = (?:\w+ = )?class (\1\d+|_\1)\b/g)) {
  if (new RegExp(`(var|let|const|function|class) ${inner}\\b`, 'g').exec(text.replace(`class ${inner}`, '')))
    throw new Error(`bundle: ${inner} names something else besides the class ${outer}; cannot give the class its name back`);
  text = text.replace(new RegExp(`\\b${inner}\\b`, 'g'), outer);
}
writeFileSync(bundle, text);
for (const file of readdirSync(out, { recursive: true, encoding: 'utf8' })) {
  if (file.endsWith('.js') && !file.startsWith('bundle') && !file.startsWith('schema')) rmSync(join(out, file));
}
