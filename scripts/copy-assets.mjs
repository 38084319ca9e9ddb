// Copies the non-TypeScript files the library reads at module init (the vendored protocol schema)
// next to the compiled output. Usage: node scripts/copy-assets.mjs [outDir of lib] (default dist).
import { cpSync, mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';

const out = process.argv[2] ?? 'dist';
for (const file of ['schema/mcp-2026-07-28.schema.json', 'schema/SOURCE.md', 'schema/LICENSE']) {
  const target = join(out, file);
  mkdirSync(dirname(target), { recursive: true });
  cpSync(join('lib', file), target);
}
