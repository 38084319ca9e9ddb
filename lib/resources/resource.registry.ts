import { Injectable } from '@nestjs/common';

import { runCompleter, type McpCompleter } from '../completion/completer.js';
import type { CompletionRef, CompletionRequest, CompletionSource } from '../completion/completion-source.interface.js';
import type { McpContext } from '../context/mcp-context.js';
import { JSON_RPC_CODES } from '../errors/json-rpc-codes.js';
import { McpConfigurationError } from '../errors/mcp-configuration.error.js';
import { McpMethodError } from '../errors/mcp-method.error.js';
import type { McpCacheHints } from '../options/mcp-module-options.interface.js';
import type { Capabilities, CapabilitySource } from '../protocol/capability-source.js';
import { bounded, quoted } from '../util/bounded.js';
import { firstListed } from '../util/first-listed.js';
import { NearMisses, didYouMean, nearMissesOf } from '../util/near-miss.js';
import type { ResourceContent } from './resource-contents.js';
import type { McpUriVariables, UriTemplate } from './uri-template.js';

/** How many resource URIs, and how many templates, a not-found refusal's message lists. */
export const URIS_LISTED = 10;

/** A resource as module init wired it in: its resources/list entry and how to read it. */
export interface WiredResource {
  readonly uri: string;
  readonly name: string;
  /** The declaration, as refusals and faults name it. */
  readonly where: string;
  readonly definition: Readonly<Record<string, unknown>>;
  /** Its own caching hints, when it declares them. */
  readonly cache: McpCacheHints | undefined;
  /** Runs its `read` and turns the return into checked contents. */
  read(ctx: McpContext): Promise<ResourceContent[]>;
}

/** A resource template as module init wired it in: its resources/templates/list entry, its matcher, its completers. */
export interface WiredResourceTemplate {
  readonly uriTemplate: string;
  readonly name: string;
  readonly where: string;
  readonly definition: Readonly<Record<string, unknown>>;
  readonly cache: McpCacheHints | undefined;
  readonly template: UriTemplate;
  /** Its variables' completers, bound to its instance. */
  readonly completers: ReadonlyMap<string, McpCompleter>;
  /** Runs its `read` for a URI it matched and turns the return into checked contents. */
  read(uri: string, variables: McpUriVariables, ctx: McpContext): Promise<ResourceContent[]>;
  /** Runs its `list`, when it has one, and turns the return into checked `resources/list` entries. */
  readonly list: ((ctx: McpContext) => Promise<readonly Readonly<Record<string, unknown>>[]>) | undefined;
}

/** What a URI resolved to: the resource or template that reads it, and the read. */
export interface ResolvedResource {
  readonly name: string;
  readonly cache: McpCacheHints | undefined;
  read(ctx: McpContext): Promise<ResourceContent[]>;
}

/**
 * The wired-in resources and resource templates, each kept in declaration order (the order Nest discovers their
 * providers: within a module, the order of its `providers`), which is the order of their lists and the order
 * templates are tried in. A URI resolves to the resource declared at exactly that URI, else to the first template
 * that matches it. Wire-in refuses a duplicate URI, URI template (or one equal up to variable names), or name (one
 * namespace for both kinds) with an `McpConfigurationError` at module init. It advertises `resources` and completes
 * template variables.
 */
@Injectable()
export class ResourceRegistry implements CapabilitySource, CompletionSource {
  private readonly resources = new Map<string, WiredResource>();
  private readonly templates = new Map<string, WiredResourceTemplate>();
  /** The templates by {@link UriTemplate.shape}: a second of one shape could never be read. */
  private readonly shapes = new Map<string, WiredResourceTemplate>();
  private readonly names = new Map<string, string>();
  /** {@link served}, spelled once (after module init nothing is wired in). */
  private servedText: string | undefined;
  /** Whether a template wired in so far declares a completer (`completes`, read on every request). */
  private completesAny = false;
  /** The near misses of the resource URIs and of the URI templates, each built on its first refusal after a wire-in. */
  private uriNearMisses: NearMisses | undefined;
  private templateNearMisses: NearMisses | undefined;

  /** Supplies a resource; refuses a URI or name already wired in. */
  wireIn(resource: WiredResource): void {
    const other = this.resources.get(resource.uri);
    if (other) throw new McpConfigurationError(resource.where, `uri ${JSON.stringify(resource.uri)} is already declared by ${other.where} (resource URIs are unique)`);
    this.claimName(resource.name, resource.where);
    this.resources.set(resource.uri, resource);
  }

  /**
   * Supplies a resource template; refuses a URI template or name already wired in, and a template matching the same
   * URIs as one wired in (equal up to variable names): the first would read every URI, and the second none.
   */
  wireInTemplate(template: WiredResourceTemplate): void {
    // One template text has one shape: a second of either is refused here, named for what it repeats.
    const same = this.shapes.get(template.template.shape);
    if (same?.uriTemplate === template.uriTemplate)
      throw new McpConfigurationError(template.where, `uriTemplate ${JSON.stringify(template.uriTemplate)} is already declared by ${same.where} (URI templates are unique)`);
    if (same)
      throw new McpConfigurationError(
        template.where,
        `uriTemplate ${JSON.stringify(template.uriTemplate)} matches the same URIs as ${JSON.stringify(same.uriTemplate)} of ${same.where} (they differ only in variable names), which is tried first, so this template could never be read`,
      );
    this.claimName(template.name, template.where);
    this.templates.set(template.uriTemplate, template);
    this.shapes.set(template.template.shape, template);
    this.completesAny ||= template.completers.size > 0;
  }

  private claimName(name: string, where: string): void {
    this.servedText = undefined;
    this.uriNearMisses = this.templateNearMisses = undefined;
    const other = this.names.get(name);
    if (other !== undefined)
      throw new McpConfigurationError(where, `name ${JSON.stringify(name)} is already used by ${other} (names are unique among resources and templates)`);
    this.names.set(name, where);
  }

  /** Every resource, in declaration order. */
  list(): readonly WiredResource[] {
    return [...this.resources.values()];
  }

  /** Every resource template, in declaration order. */
  listTemplates(): readonly WiredResourceTemplate[] {
    return [...this.templates.values()];
  }

  /** How many resources and templates are wired in. */
  get size(): number {
    return this.resources.size + this.templates.size;
  }

  /** What a refusal of an unknown URI tells its reader is served: the first {@link URIS_LISTED} resources and templates. */
  served(): string {
    return (this.servedText ??= this.describeServed());
  }

  private describeServed(): string {
    const listed = (what: string, items: readonly string[]) => (items.length ? ` ${what}: ${firstListed(items, URIS_LISTED)}.` : '');
    return (
      listed('Resources', [...this.resources.keys()]) +
      listed(
        'Templates',
        [...this.templates.values()].map((t) => t.uriTemplate),
      )
    );
  }

  /** The resource URI an unmatched `uri` nearly spells ({@link NearMisses.meant}), for its refusal. */
  uriMeant(uri: string): string | undefined {
    return (this.uriNearMisses ??= new NearMisses(this.resources.keys(), true)).meant(uri);
  }

  /** What reads `uri`: the resource at exactly that URI, else the first template (in declaration order) matching it. */
  resolve(uri: string): ResolvedResource | undefined {
    const resource = this.resources.get(uri);
    if (resource) return resource;
    for (const template of this.templates.values()) {
      const variables = template.template.match(uri);
      if (variables) return { name: template.name, cache: template.cache, read: (ctx) => template.read(uri, variables, ctx) };
    }
    return undefined;
  }

  /** `resources` when any resource or template is wired in, and `logging`; the flags beside it (subscribe, listChanged) are other sources'. */
  contribute(into: Capabilities): void {
    if (this.size === 0) return;
    into.resources ??= {};
    into.logging ??= {}; // a resource's read() may log
  }

  /** Whether any template declares a completer. */
  get completes(): boolean {
    return this.completesAny;
  }

  /** Lists its templates for an unknown `ref/resource`. */
  refsListed(type: CompletionRef['type']): string {
    if (type !== 'ref/resource' || this.templates.size === 0) return '';
    return ` Templates: ${firstListed(
      [...this.templates.values()].map((t) => t.uriTemplate),
      URIS_LISTED,
    )}.`;
  }

  /** The URI template an unknown `ref/resource` nearly spells. */
  refMeant(ref: CompletionRef): string | undefined {
    return ref.type === 'ref/resource' ? (this.templateNearMisses ??= new NearMisses(this.templates.keys(), true)).meant(ref.uri) : undefined;
  }

  /**
   * Completes a variable of the template whose `uriTemplate` is the reference's `uri` (undefined for any other
   * reference); a name that is not one of its variables is 400 + -32602, and a variable without a completer
   * completes to no values.
   */
  complete(request: CompletionRequest): Promise<readonly string[]> | undefined {
    if (request.ref.type !== 'ref/resource') return undefined;
    const template = this.templates.get(request.ref.uri);
    if (!template) return undefined;
    const name = request.argument.name;
    if (!template.template.variables.includes(name))
      throw new McpMethodError(
        JSON_RPC_CODES.invalidParams,
        `Invalid params: ${quoted(name, 60)}${didYouMean(nearMissesOf(template.template.variables).meant(name))} is not a variable of resource template ${quoted(template.uriTemplate, 200)}.`,
        { reason: 'unknown_variable', uriTemplate: template.uriTemplate, variable: bounded(name, 100), variables: template.template.variables },
        400,
      );
    const completer = template.completers.get(name);
    if (!completer) return Promise.resolve([]);
    return runCompleter(completer, request.argument.value, { arguments: request.arguments }, request.ctx, `the completer of variable "${name}" of ${template.where}`);
  }
}
