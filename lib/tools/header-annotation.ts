import { McpConfigurationError } from '../errors/mcp-configuration.error.js';

/**
 * A header annotation: an `x-mcp-header` key on an input-schema property, naming the `Mcp-Param-{X}` header a
 * conforming client mirrors that argument into. Read from a tool's published input schema at module init.
 */
export interface HeaderAnnotation {
  /** The annotation's value `X`, as written. */
  readonly value: string;
  /** The header name, lower-cased as Node exposes it: `mcp-param-x`. */
  readonly header: string;
  /** The property names from the arguments root to the annotated property (a pure `properties` chain). */
  readonly path: readonly string[];
  /** The property's JSON type. */
  readonly type: 'string' | 'integer' | 'boolean';
}

const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
const HEADER_TYPES = new Set(['string', 'integer', 'boolean']);

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * Header-annotation validation: collects the header annotations of a published input schema and refuses, with a
 * `McpConfigurationError` naming the tool and the property, every annotation that breaks the spec's rules: an
 * empty or non-token value, a duplicate ignoring case, a property whose `type` is not exactly one of string,
 * integer or boolean, an integer whose schema bounds leave the JS safe range, or a place not reachable from
 * the root through a pure chain of `properties` keys. A conforming client would otherwise drop the whole tool
 * from its list without telling the server.
 */
export function collectHeaderAnnotations(tool: string, inputSchema: unknown): HeaderAnnotation[] {
  const found: HeaderAnnotation[] = [];
  const where = (path: readonly string[]) => `tool "${tool}", input schema at ${path.length ? path.join('/') : '(root)'}`;

  const visit = (node: unknown, schemaPath: string[], chain: string[] | undefined): void => {
    if (Array.isArray(node)) {
      node.forEach((item, i) => visit(item, [...schemaPath, String(i)], undefined));
      return;
    }
    if (!isObject(node)) return;
    if ('x-mcp-header' in node) {
      const value = node['x-mcp-header'];
      if (!chain || chain.length === 0)
        throw new McpConfigurationError(where(schemaPath), 'x-mcp-header must sit on a property reachable from the root through "properties" keys only (not under items, composition, conditionals, $defs or $ref)');
      if (typeof value !== 'string' || value === '')
        throw new McpConfigurationError(where(schemaPath), 'x-mcp-header must be a non-empty string');
      if (!TOKEN.test(value))
        throw new McpConfigurationError(where(schemaPath), `x-mcp-header ${JSON.stringify(value)} is not an HTTP token (letters, digits and !#$%&'*+-.^_\`|~ only)`);
      if (typeof node.type !== 'string' || !HEADER_TYPES.has(node.type))
        throw new McpConfigurationError(where(schemaPath), `x-mcp-header needs "type" to be exactly one of string, integer or boolean, got ${JSON.stringify(node.type)}`);
      if (node.type === 'integer') {
        for (const bound of ['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum'] as const) {
          const b = node[bound];
          if (typeof b === 'number' && Math.abs(b) > Number.MAX_SAFE_INTEGER)
            throw new McpConfigurationError(where(schemaPath), `x-mcp-header integer property has ${bound} ${b}, outside ±(2^53−1)`);
        }
      }
      const duplicate = found.find((a) => a.value.toLowerCase() === value.toLowerCase());
      if (duplicate)
        throw new McpConfigurationError(where(schemaPath), `x-mcp-header ${JSON.stringify(value)} duplicates ${JSON.stringify(duplicate.value)} (compared without case) at ${duplicate.path.join('.')}`);
      found.push({ value, header: `mcp-param-${value.toLowerCase()}`, path: chain, type: node.type as HeaderAnnotation['type'] });
    }
    for (const [key, child] of Object.entries(node)) {
      if (key === 'properties' && isObject(child) && (chain !== undefined)) {
        for (const [name, sub] of Object.entries(child)) visit(sub, [...schemaPath, 'properties', name], [...chain, name]);
      } else if (key !== 'x-mcp-header') {
        visit(child, [...schemaPath, key], undefined);
      }
    }
  };

  visit(inputSchema, [], []);
  return found;
}
