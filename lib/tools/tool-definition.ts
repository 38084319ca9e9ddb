import { McpConfigurationError, got, unknownOptions } from '../errors/mcp-configuration.error.js';
import { isPlainObject } from '../util/is-plain-object.js';
import { withoutHeaderAnnotations } from './header-annotation.js';
import { checkToolAnnotations } from './tool-annotations.js';
import { TOOL_OPTION_KEYS, type McpToolOptions } from './tool.interfaces.js';

/**
 * Checks what `@McpTool` declared, at module init: a closed key set ({@link TOOL_OPTION_KEYS}) and the value types,
 * the annotations' own closed key set included. The name is the registry's to check, the schemas the compiler's.
 */
export function checkToolOptions(options: McpToolOptions, where: string): void {
  const unknown = unknownOptions(options, TOOL_OPTION_KEYS, '@McpTool');
  if (unknown) throw new McpConfigurationError(where, unknown);
  if (typeof options.description !== 'string' || options.description === '')
    throw new McpConfigurationError(where, `description must be a non-empty string${got(options.description)}`);
  if (options.title !== undefined && typeof options.title !== 'string') throw new McpConfigurationError(where, `title must be a string${got(options.title)}`);
  if (options.annotations !== undefined) {
    if (!isPlainObject(options.annotations)) throw new McpConfigurationError(where, `annotations must be an object${got(options.annotations)}`);
    checkToolAnnotations(options.annotations, where);
  }
  for (const key of ['inputSchema', 'outputSchema'] as const) {
    const schema: unknown = options[key];
    if (isStandardSchema(schema)) throw new McpConfigurationError(`${where}, ${key}`, standardSchemaOffence(key, schema as StandardSchemaLike));
    if (schema !== undefined && !isPlainObject(schema)) throw new McpConfigurationError(`${where}, ${key}`, `must be a JSON Schema object${got(schema)}`);
  }
}

/**
 * Whether a value is a Standard Schema (zod, Valibot, ArkType…) rather than JSON: it carries the spec's `~standard`
 * and is a class instance or a function, or an object literal that JSON would carry it in (an enumerable key). The
 * JSON Schema zod 4.2+'s `z.toJSONSchema()` returns is an object literal with a hidden `~standard`: not this.
 */
function isStandardSchema(value: unknown): boolean {
  if ((typeof value !== 'object' && typeof value !== 'function') || value === null || !('~standard' in value)) return false;
  const prototype: unknown = Object.getPrototypeOf(value);
  return (prototype !== Object.prototype && prototype !== null) || Object.prototype.propertyIsEnumerable.call(value, '~standard');
}

/** What a Standard Schema is read for here: the library that made it (`~standard.vendor`). */
type StandardSchemaLike = { readonly '~standard'?: { readonly vendor?: unknown } };

/**
 * The offence of a Standard Schema given where a JSON Schema belongs, naming the conversion of the library that
 * made it (zod's when it names none we know): each writes JSON Schema 2020-12 as shown.
 */
function standardSchemaOffence(key: 'inputSchema' | 'outputSchema', schema: StandardSchemaLike): string {
  const vendor = schema['~standard']?.vendor;
  const convert =
    vendor === 'valibot'
      ? "Valibot: toJsonSchema(schema, { target: 'draft-2020-12' }) from @valibot/to-json-schema"
      : vendor === 'arktype'
        ? 'ArkType: schema.toJsonSchema()'
        : `zod 4: ${key === 'inputSchema' ? "z.toJSONSchema(schema, { io: 'input' })" : 'z.toJSONSchema(schema)'}`;
  return `is a Standard Schema (zod, Valibot, ArkType…), not a JSON Schema: pass its JSON Schema (${convert})`;
}

/** A tool's tools/list entry, built once at module init; `title`, `outputSchema` and `annotations` only when declared. */
export function toolDefinition(options: McpToolOptions, inputSchema: Record<string, unknown>): Readonly<Record<string, unknown>> {
  const definition: Record<string, unknown> = { name: options.name };
  if (options.title !== undefined) definition.title = options.title;
  definition.description = options.description;
  definition.inputSchema = inputSchema;
  if (options.outputSchema !== undefined) definition.outputSchema = options.outputSchema;
  if (options.annotations !== undefined) definition.annotations = options.annotations;
  return Object.freeze(definition);
}

/**
 * A tool's tools/list entry for a legacy client: without an `outputSchema` whose root is not `type: "object"`
 * (2026-07-28 allows any JSON Schema there; the 2025 revisions type it, and `structuredContent`, as an object, and
 * a client checking that refuses the whole list), and without the input schema's `x-mcp-header` annotations
 * (header binding is a 2026-07-28 rule). The entry itself when nothing is left out.
 */
export function legacyToolDefinition(definition: Readonly<Record<string, unknown>>): Readonly<Record<string, unknown>> {
  const output = definition.outputSchema;
  const input = definition.inputSchema as Readonly<Record<string, unknown>>;
  const legacyInput = withoutHeaderAnnotations(input);
  const objectOutput = output === undefined || (isPlainObject(output) && output.type === 'object');
  if (objectOutput && legacyInput === input) return definition;
  const entry: Record<string, unknown> = { ...definition, inputSchema: legacyInput };
  if (!objectOutput) delete entry.outputSchema;
  return Object.freeze(entry);
}

/** The parts of a tool's help entries every tool kind shares: name, title and description, as written. */
export function helpHeading(options: McpToolOptions): Record<string, unknown> {
  return { tool: options.name, ...(options.title !== undefined && { title: options.title }), description: options.description };
}
