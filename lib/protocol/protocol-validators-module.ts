import { precompiledModule, type PrecompiledModule } from '../validation/precompiled-source.js';
import { protocolAjv, type ProtocolSchemaDocument } from './protocol-schema.js';

/**
 * An ES module exporting `all` and `first` ({@link PrecompiledDefinitions}): the named `$defs` entries of a
 * protocol schema document (every one by default), compiled ahead of time with the ajv options
 * {@link ProtocolSchema} uses at run time.
 */
export function protocolValidatorsModule(
  document: ProtocolSchemaDocument,
  id: string,
  origin: string,
  definitions: readonly string[] = Object.keys(document.$defs),
): Promise<PrecompiledModule> {
  const refs = Object.fromEntries(definitions.map((name) => [name, `${id}#/$defs/${name}`]));
  const variant = (allErrors: boolean) => ({ ajv: protocolAjv(allErrors, true).addSchema(document, id), refs });
  return precompiledModule(origin, { all: variant(true), first: variant(false) });
}
