// Bundles the compiled library (dist/, from tsc) into one ES module, dist/bundle/index.js, which the package
// exports: one file loads in a fraction of the time of the ~150 modules tsc writes. Dependencies stay external.
// The per-file .js output is then removed (its .d.ts files stay: they type the bundle); dist/schema stays, read at
// run time relative to the bundle (`../schema/`, as from any dist/<floor>/ file).
import { readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';

import { build } from 'esbuild';

const out = process.argv[2] ?? 'dist';
// keepNames: classes keep the names they are written with (Nest names providers and modules by them in errors and logs).
await build({
  entryPoints: [join(out, 'index.js')],
  bundle: true,
  format: 'esm',
  platform: 'node',
  packages: 'external',
  keepNames: true,
  outfile: join(out, 'bundle', 'index.js'),
  logLevel: 'warning',
});
for (const file of readdirSync(out, { recursive: true, encoding: 'utf8' })) {
  if (file.endsWith('.js') && !file.startsWith('bundle') && !file.startsWith('schema')) rmSync(join(out, file));
}
