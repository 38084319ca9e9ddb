import { McpConfigurationError, got } from '../errors/mcp-configuration.error.js';
import type { HeaderAnnotation } from '../protocol/header-annotation-lookup.js';
import { quoted } from '../util/bounded.js';
import { isPlainObject } from '../util/is-plain-object.js';

const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
const HEADER_TYPES = new Set(['string', 'integer', 'boolean']);

/** Keywords whose values are instances, not schemas: an `x-mcp-header` key inside them is data, not an annotation. */
const INSTANCE_KEYWORDS = new Set(['const', 'enum', 'default', 'examples']);
/** Keywords whose values map names to schemas: their keys are names, never keywords. */
const NAME_MAPS = new Set(['properties', 'patternProperties', 'dependentSchemas', '$defs', 'definitions']);
/** Keywords bounding an integer property, and those listing its values: each must stay within ±(2^53−1). */
const INTEGER_BOUNDS = ['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum'] as const;

/** Why an integer property's schema admits values outside the JS safe range, or undefined when it does not. */
function unsafeIntegerKeyword(node: Record<string, unknown>): string | undefined {
  for (const bound of INTEGER_BOUNDS) {
    const b = node[bound];
    if (typeof b === 'number' && Math.abs(b) > Number.MAX_SAFE_INTEGER) return `${bound} ${b}`;
  }
  const listed = [...(Array.isArray(node.enum) ? node.enum : []), ...('const' in node ? [node.const] : [])];
  const unsafe = listed.find((v) => typeof v === 'number' && Math.abs(v) > Number.MAX_SAFE_INTEGER);
  return unsafe === undefined ? undefined : `the listed value ${unsafe}`;
}

/**
 * Collects the header annotations of a published input schema at module init, refusing with a
 * `McpConfigurationError` each one the spec forbids (the rules: docs/wire-checks.md, "Declaring x-mcp-header"),
 * since a conforming client would otherwise drop the whole tool silently.
 * Proven by: test/wire/header-annotation.e2e-spec.ts
 * @see https://modelcontextprotocol.io/specification/2026-07-28/basic/transports/streamable-http
 */
export function collectHeaderAnnotations(tool: string, inputSchema: unknown): HeaderAnnotation[] {
  const found: HeaderAnnotation[] = [];
  const where = (path: readonly string[]) => `tool "${tool}", input schema at ${path.length ? path.join('/') : '(root)'}`;

  const visit = (node: unknown, schemaPath: string[], chain: string[] | undefined): void => {
    if (Array.isArray(node)) {
      node.forEach((item, i) => visit(item, [...schemaPath, String(i)], undefined));
      return;
    }
    if (!isPlainObject(node)) return;
    if ('x-mcp-header' in node) {
      const value = node['x-mcp-header'];
      if (!chain || chain.length === 0)
        throw new McpConfigurationError(
          where(schemaPath),
          'x-mcp-header must sit on a property reachable from the root through "properties" keys only (not under items, composition, conditionals, $defs or $ref)',
        );
      if (typeof value !== 'string' || value === '') throw new McpConfigurationError(where(schemaPath), `x-mcp-header must be a non-empty string${got(value)}`);
      if (!TOKEN.test(value))
        throw new McpConfigurationError(where(schemaPath), `x-mcp-header ${JSON.stringify(value)} is not an HTTP token (letters, digits and !#$%&'*+-.^_\`|~ only)`);
      if (typeof node.type !== 'string' || !HEADER_TYPES.has(node.type))
        throw new McpConfigurationError(
          where(schemaPath),
          `x-mcp-header needs "type" to be exactly one of string, integer or boolean (number, object, array and null cannot be mirrored), ${node.type === undefined ? 'and the property has none' : `got ${quoted(node.type, 60)}`}`,
        );
      const unsafe = node.type === 'integer' ? unsafeIntegerKeyword(node) : undefined;
      if (unsafe) throw new McpConfigurationError(where(schemaPath), `x-mcp-header integer property has ${unsafe}, outside ±(2^53−1)`);
      const duplicate = found.find((a) => a.value.toLowerCase() === value.toLowerCase());
      if (duplicate)
        throw new McpConfigurationError(
          where(schemaPath),
          `x-mcp-header ${JSON.stringify(value)} duplicates ${JSON.stringify(duplicate.value)} (compared without case) at ${duplicate.path.join('.')}`,
        );
      found.push({ value, header: `mcp-param-${value.toLowerCase()}`, path: chain, type: node.type as HeaderAnnotation['type'] });
    }
    for (const [key, child] of Object.entries(node)) {
      if (NAME_MAPS.has(key) && isPlainObject(child)) {
        const onChain = key === 'properties' ? chain : undefined;
        for (const [name, sub] of Object.entries(child)) visit(sub, [...schemaPath, key, name], onChain && [...onChain, name]);
      } else if (key !== 'x-mcp-header' && !INSTANCE_KEYWORDS.has(key)) {
        visit(child, [...schemaPath, key], undefined);
      }
    }
  };

  visit(inputSchema, [], []);
  return found;
}

/**
 * An input schema as a legacy client is shown it: without its `x-mcp-header` annotations, which only a 2026-07-28
 * client acts on and which a client compiling schemas with a strict validator refuses as an unknown keyword. The
 * schema itself when it has none; otherwise a copy of the objects on the way to each (annotations sit on `properties`
 * chains only: {@link collectHeaderAnnotations}).
 */
export function withoutHeaderAnnotations(schema: Readonly<Record<string, unknown>>): Readonly<Record<string, unknown>> {
  let kept: Readonly<Record<string, unknown>> = schema;
  if ('x-mcp-header' in schema) {
    const { 'x-mcp-header': _annotation, ...rest } = schema;
    kept = rest;
  }
  const properties = schema.properties;
  if (!isPlainObject(properties)) return kept;
  let changed = false;
  const entries = Object.entries(properties).map(([name, property]): [string, unknown] => {
    const stripped = isPlainObject(property) ? withoutHeaderAnnotations(property) : property;
    changed ||= stripped !== property;
    return [name, stripped];
  });
  return changed ? { ...kept, properties: Object.fromEntries(entries) } : kept;
}
