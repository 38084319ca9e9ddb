import { expect } from '@jest/globals';

import { McpConfigurationError } from '../../lib/index.js';
import type { SchemaCompiler } from '../../lib/validation/schema-compiler.js';

/** The message of the `McpConfigurationError` `compiler` refuses `schema` with, declared as "the schema"; throws when it compiles. */
export function schemaRefusal(compiler: SchemaCompiler, schema: unknown): string {
  try {
    compiler.compile(schema, 'the schema');
  } catch (thrown) {
    expect(thrown).toBeInstanceOf(McpConfigurationError);
    return (thrown as Error).message;
  }
  throw new Error('expected a refusal');
}
