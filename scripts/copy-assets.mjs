// Copies the non-TypeScript files the library reads (lib/schema: the vendored protocol schema, the precompiled
// validators and their declarations) next to the compiled output.
// Usage: node scripts/copy-assets.mjs [outDir of lib] (default dist).
import { cpSync } from 'node:fs';
import { join } from 'node:path';

cpSync(join('lib', 'schema'), join(process.argv[2] ?? 'dist', 'schema'), { recursive: true });
