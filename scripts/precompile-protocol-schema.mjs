// Writes lib/schema/*.validators.js (and .d.ts): validators compiled ahead of time for the vendored 2026-07-28
// schema with its corrections (SCHEMA_CORRECTIONS; the definitions the library checks and those their unions branch
// to: precompiledDefinitions), the legacy schema, the tasks schema and the JSON Schema 2020-12 meta-schema, so
// starting compiles none of them.
// Usage: npm run precompile:schema (it compiles dist/ unbundled, runs this with the built generators, then builds).
import { readFile, writeFile } from 'node:fs/promises';

import { precompiledDefinitions } from '../dist/checked-definitions.js';
import { LEGACY_SCHEMA_DOCUMENT, LEGACY_SCHEMA_ID } from '../dist/protocol/legacy-schema.js';
import { VENDORED_SCHEMA_ID } from '../dist/protocol/protocol-schema.js';
import { protocolValidatorsModule } from '../dist/protocol/protocol-validators-module.js';
import { correctedSchema } from '../dist/protocol/schema-corrections.js';
import { TASKS_SCHEMA_DOCUMENT, TASKS_SCHEMA_ID } from '../dist/tasks/tasks-schema.js';
import { metaSchemaModule } from '../dist/validation/meta-schema-module.js';

const vendored = correctedSchema(JSON.parse(await readFile('lib/schema/mcp-2026-07-28.schema.json', 'utf8')));
const modules = {
  'mcp-2026-07-28': await protocolValidatorsModule(vendored, VENDORED_SCHEMA_ID, 'mcp-2026-07-28.schema.json', precompiledDefinitions(vendored)),
  'mcp-legacy': await protocolValidatorsModule(LEGACY_SCHEMA_DOCUMENT, LEGACY_SCHEMA_ID, 'lib/protocol/legacy-schema.ts'),
  'mcp-tasks': await protocolValidatorsModule(TASKS_SCHEMA_DOCUMENT, TASKS_SCHEMA_ID, 'lib/tasks/tasks-schema.ts'),
  'json-schema-2020-12': await metaSchemaModule(),
};
for (const [name, { source, declarations }] of Object.entries(modules)) {
  await writeFile(`lib/schema/${name}.validators.js`, source);
  await writeFile(`lib/schema/${name}.validators.d.ts`, declarations);
}
