import { REQUEST_DEFINITIONS } from './methods/mcp-methods.js';
import { INPUT_KINDS } from './mrtr/input-kinds.js';
import type { ProtocolSchemaDocument } from './protocol/protocol-schema.js';
import { definitionName, unionRefs } from './validation/union-branches.js';

/**
 * The definitions of the vendored 2026-07-28 schema the library itself checks values against, and so the ones
 * `npm run precompile:schema` compiles ahead of time; any other compiles on first use. Closed both ways:
 * test/validation/precompiled-validators.spec.ts fails on a definition the library checks that is missing here (it
 * would compile at run time) and on one listed here that it never checks.
 */
export const CHECKED_DEFINITIONS: readonly string[] = [
  ...new Set([
    // The POST chain: the envelope and the request `_meta`.
    'JSONRPCRequest',
    'JSONRPCNotification',
    'RequestMetaObject',
    ...Object.values(REQUEST_DEFINITIONS),
    ...Object.values(INPUT_KINDS).flatMap((kind) => [kind.requestDefinition, kind.answerDefinition]),
    // What module init checks a provider's declarations and shapes against.
    'CallToolResult',
    'Prompt',
    'GetPromptResult',
    'Resource',
    'ResourceTemplate',
    'TextResourceContents',
    'BlobResourceContents',
  ]),
].sort();

/**
 * What `npm run precompile:schema` compiles of the vendored schema: {@link CHECKED_DEFINITIONS} and the definitions
 * their unions' `$ref` branches name, which a failed union is checked against branch by branch to word its problem.
 */
export function precompiledDefinitions(document: ProtocolSchemaDocument): string[] {
  const branches = unionRefs(document, CHECKED_DEFINITIONS).branchRefs.map(definitionName);
  return [...new Set([...CHECKED_DEFINITIONS, ...branches.filter((name) => name !== undefined)])].sort();
}
