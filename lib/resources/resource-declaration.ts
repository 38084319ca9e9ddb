import { McpConfigurationError, declaredName, got, unknownOptions } from '../errors/mcp-configuration.error.js';
import { MODULE_OPTION_RULES } from '../options/module-option-rules.js';
import type { ProtocolSchema } from '../protocol/protocol-schema.js';
import type { McpAnnotations } from '../response/content-block.js';
import { isPlainObject } from '../util/is-plain-object.js';
import { jsonValueOffence } from '../validation/json-value.js';
import { absoluteUriProblem } from './resource-uri.js';
import { RESOURCE_OPTION_KEYS, RESOURCE_TEMPLATE_OPTION_KEYS, type McpResourceOptions, type McpResourceTemplateOptions } from './resource.interfaces.js';
import { UriTemplate, UriTemplateError } from './uri-template.js';

/** A MIME type as `type/subtype`, parameters allowed (RFC 6838 names). */
const MIME_TYPE = /^[A-Za-z0-9!#$&^_.+-]+\/[A-Za-z0-9!#$&^_.+-]+(?:\s*;.*)?$/;
const ANNOTATION_KEYS = ['audience', 'priority', 'lastModified'] as const;

/**
 * `resource "name" (Class)` or `resource template "name" (Class)`: where a declaration's refusals are; `options` is
 * what the decorator was given, named only when it is an options object.
 */
export function declarationSite(kind: 'resource' | 'resource template', options: unknown, className: string): string {
  if (!isPlainObject(options)) return `${kind} (${className})`;
  return `${kind} ${declaredName(options.name)} (${className})`;
}

function closedKeys(options: object, allowed: readonly string[], decorator: string, where: string): void {
  const unknown = unknownOptions(options, allowed, decorator);
  if (unknown) throw new McpConfigurationError(where, unknown);
}

function checkAnnotations(annotations: unknown, where: string): void {
  if (!isPlainObject(annotations)) throw new McpConfigurationError(where, `annotations must be an object${got(annotations)}`);
  closedKeys(annotations, ANNOTATION_KEYS, 'annotations', where);
  const { audience, priority, lastModified } = annotations as McpAnnotations;
  if (audience !== undefined && !(Array.isArray(audience) && audience.every((role) => role === 'user' || role === 'assistant')))
    throw new McpConfigurationError(where, `annotations.audience must be an array of "user" and "assistant"${got(audience)}`);
  if (priority !== undefined && !(typeof priority === 'number' && priority >= 0 && priority <= 1))
    throw new McpConfigurationError(where, `annotations.priority must be a number from 0 to 1${got(priority)}`);
  if (lastModified !== undefined && (typeof lastModified !== 'string' || Number.isNaN(Date.parse(lastModified))))
    throw new McpConfigurationError(where, `annotations.lastModified must be an ISO 8601 timestamp${got(lastModified)}`);
}

/** The checks both declarations share: name, title, description, mimeType, annotations, icons and cache. */
function checkCommon(options: McpResourceOptions | McpResourceTemplateOptions, where: string): void {
  if (typeof options.name !== 'string' || options.name === '') throw new McpConfigurationError(where, `name must be a non-empty string${got(options.name)}`);
  for (const key of ['title', 'description'] as const)
    if (options[key] !== undefined && typeof options[key] !== 'string') throw new McpConfigurationError(where, `${key} must be a string${got(options[key])}`);
  if (options.mimeType !== undefined && (typeof options.mimeType !== 'string' || !MIME_TYPE.test(options.mimeType)))
    throw new McpConfigurationError(where, `mimeType must be a MIME type such as "text/plain"${got(options.mimeType)}`);
  if (options.annotations !== undefined) checkAnnotations(options.annotations, where);
  if (options.icons !== undefined) {
    if (!Array.isArray(options.icons)) throw new McpConfigurationError(where, `icons must be an array${got(options.icons)}`);
    const notJson = jsonValueOffence(options.icons, ['icons']);
    if (notJson) throw new McpConfigurationError(where, `icons hold a value JSON cannot carry, ${notJson}`);
  }
  if (options.cache !== undefined) {
    const problem = MODULE_OPTION_RULES.cache(options.cache);
    if (problem) throw new McpConfigurationError(where, `cache ${problem}${problem.includes(', got ') ? '' : got(options.cache)}`);
  }
}

/** Checks what `@McpResource` declared, at module init: a closed key set, an absolute URI, the value types. */
export function checkResourceOptions(options: McpResourceOptions, where: string): void {
  if (!isPlainObject(options)) throw new McpConfigurationError(where, `@McpResource takes an options object${got(options)}`);
  closedKeys(options, RESOURCE_OPTION_KEYS, '@McpResource', where);
  if (typeof options.uri !== 'string') throw new McpConfigurationError(where, `uri must be a string${got(options.uri)}`);
  const problem = absoluteUriProblem(options.uri);
  if (problem) throw new McpConfigurationError(where, `uri ${problem}${got(options.uri)}`);
  checkCommon(options, where);
  if (options.size !== undefined && !(Number.isSafeInteger(options.size) && options.size >= 0))
    throw new McpConfigurationError(where, `size must be an integer >= 0 (bytes)${got(options.size)}`);
}

/** Checks what `@McpResourceTemplate` declared, at module init, and parses its template. */
export function checkTemplateOptions(options: McpResourceTemplateOptions, where: string): UriTemplate {
  if (!isPlainObject(options)) throw new McpConfigurationError(where, `@McpResourceTemplate takes an options object${got(options)}`);
  closedKeys(options, RESOURCE_TEMPLATE_OPTION_KEYS, '@McpResourceTemplate', where);
  if (typeof options.uriTemplate !== 'string') throw new McpConfigurationError(where, `uriTemplate must be a string${got(options.uriTemplate)}`);
  let template: UriTemplate;
  try {
    template = UriTemplate.parse(options.uriTemplate);
  } catch (thrown) {
    if (!(thrown instanceof UriTemplateError)) throw thrown;
    throw new McpConfigurationError(where, `uriTemplate ${thrown.message}${got(options.uriTemplate)}`);
  }
  checkCommon(options, where);
  if (options.complete !== undefined && !isPlainObject(options.complete))
    throw new McpConfigurationError(where, `complete must be an object mapping variable names to completers${got(options.complete)}`);
  return template;
}

/** The optional members both definitions share, in the schema's order, each only when declared. */
function describe(options: McpResourceOptions | McpResourceTemplateOptions): Record<string, unknown> {
  const described: Record<string, unknown> = {};
  for (const key of ['title', 'description', 'mimeType'] as const) if (options[key] !== undefined) described[key] = options[key];
  if ('size' in options && options.size !== undefined) described.size = options.size;
  if (options.annotations !== undefined) described.annotations = options.annotations;
  if (options.icons !== undefined) described.icons = options.icons;
  return described;
}

/** Refuses a definition the protocol's own definition of it refuses (an icon's `src` not a URI, say). */
function conform(protocol: ProtocolSchema, definition: Record<string, unknown>, schemaName: string, where: string): Readonly<Record<string, unknown>> {
  const problems = protocol.check(schemaName, definition);
  if (problems.length)
    throw new McpConfigurationError(
      where,
      `does not make a valid MCP ${schemaName}: ${problems
        .slice(0, 3)
        .map((p) => `/${p.path.join('/')}: ${p.problem}`)
        .join('; ')}`,
    );
  return Object.freeze(definition);
}

/** A resource's resources/list entry (MCP `Resource`), built and checked once at module init. */
export function resourceDefinition(options: McpResourceOptions, protocol: ProtocolSchema, where: string): Readonly<Record<string, unknown>> {
  return conform(protocol, { uri: options.uri, name: options.name, ...describe(options) }, 'Resource', where);
}

/** A template's resources/templates/list entry (MCP `ResourceTemplate`), built and checked once at module init. */
export function templateDefinition(options: McpResourceTemplateOptions, protocol: ProtocolSchema, where: string): Readonly<Record<string, unknown>> {
  return conform(protocol, { uriTemplate: options.uriTemplate, name: options.name, ...describe(options) }, 'ResourceTemplate', where);
}
