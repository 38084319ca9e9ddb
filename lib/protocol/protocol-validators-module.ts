import { precompiledModule, type PrecompiledModule } from '../validation/precompiled-source.js';
import { protocolAjv, type ProtocolSchemaDocument } from './protocol-schema.js';

/**
 * An ES module exporting `all` and `first` ({@link PrecompiledDefinitions}): every `$defs` entry of a
 * protocol schema document, compiled ahead of time with the ajv options {@link ProtocolSchema} uses at run time.
 */
export function protocolValidatorsModule(document: ProtocolSchemaDocument, id: string, origin: string): Promise<PrecompiledModule> {
  const refs = Object.fromEntries(Object.keys(document.$defs).map((name) => [name, `${id}#/$defs/${name}`]));
  const variant = (allErrors: boolean) => ({ ajv: protocolAjv(allErrors, true).addSchema(document, id), refs });
  return precompiledModule(origin, { all: variant(true), first: variant(false) });
}
