import type { McpCompleter } from '../completion/completer.js';
import type { McpHandlerContext } from '../context/mcp-context.js';
import type { McpCacheHints, McpIcon } from '../options/mcp-module-options.interface.js';
import type { McpAnnotations } from '../response/content-block.js';
import type { McpUriVariableName, McpUriVariables } from './uri-template.js';

/**
 * What `@McpResource` declares: a resource at one fixed URI; any other key is refused at module init.
 * @publicApi
 */
export interface McpResourceOptions {
  /** The resource's absolute URI (RFC 3986, with a scheme), unique in the server; `resources/read` matches it exactly. */
  uri: string;
  /** Its programmatic name, non-empty and unique among the server's resources and resource templates. */
  name: string;
  /** Display name. */
  title?: string;
  /** What the resource is, for the client and its model. */
  description?: string;
  /** Its MIME type (`type/subtype`), also given to contents that do not name their own. */
  mimeType?: string;
  /** Its size in bytes before any encoding, when known; an integer >= 0. */
  size?: number;
  annotations?: McpAnnotations;
  /** Icons a client may display. */
  icons?: readonly McpIcon[];
  /** Caching hints for its reads, in place of the module's `cache` option. @default the module's `cache` */
  cache?: McpCacheHints;
}

/** The keys {@link McpResourceOptions} may hold (its closed key set). */
export const RESOURCE_OPTION_KEYS = ['uri', 'name', 'title', 'description', 'mimeType', 'size', 'annotations', 'icons', 'cache'] as const;

/**
 * What `@McpResourceTemplate` declares: resources whose URIs match an RFC 6570 template (levels 1–3); any other
 * key is refused at module init.
 * @publicApi
 */
export interface McpResourceTemplateOptions<T extends string = string> {
  /** The URI template, starting with a written-out scheme, unique in the server: `file:///{+path}`, `app://users/{id}{?fields}`. */
  uriTemplate: T;
  /** Its programmatic name, non-empty and unique among the server's resources and resource templates. */
  name: string;
  /** Display name. */
  title?: string;
  /** What the resources are, for the client and its model. */
  description?: string;
  /** The MIME type every matching resource has, also given to contents that do not name their own. */
  mimeType?: string;
  annotations?: McpAnnotations;
  /** Icons a client may display. */
  icons?: readonly McpIcon[];
  /** Caching hints for its reads, in place of the module's `cache` option. @default the module's `cache` */
  cache?: McpCacheHints;
  /**
   * Completers of template variables for `completion/complete`, by variable name: a function, or the name of a
   * method of the template's class (called on the provider, so it can use what is injected). A variable without
   * one completes to no values. Written in the decorator, the names are checked against the template's variables.
   */
  complete?: { [Name in McpUriVariableName<T>]?: McpCompleter | string };
}

/** The keys {@link McpResourceTemplateOptions} may hold (its closed key set). */
export const RESOURCE_TEMPLATE_OPTION_KEYS = ['uriTemplate', 'name', 'title', 'description', 'mimeType', 'annotations', 'icons', 'cache', 'complete'] as const;

/** One contents item a read returns (MCP `TextResourceContents` or `BlobResourceContents`), `uri` and `mimeType` optional. @publicApi */
export type McpResourceContents =
  | { uri?: string; mimeType?: string; text: string; blob?: never; _meta?: Record<string, unknown> }
  | { uri?: string; mimeType?: string; blob: string | Uint8Array; text?: never; _meta?: Record<string, unknown> };

/**
 * What a read may return: text, bytes (sent base64 as a blob), one contents item, or several. A contents item
 * without `uri` gets the URI read, and without `mimeType` the declared one.
 * @publicApi
 */
export type McpResourceReturn = string | Uint8Array | McpResourceContents | readonly (string | Uint8Array | McpResourceContents)[];

/** The class of an `@McpResource`: reads the resource. @publicApi */
export interface McpResourceHandler {
  read(ctx: McpHandlerContext): McpResourceReturn | Promise<McpResourceReturn>;
}

/**
 * One resource a template lists in `resources/list` (MCP `Resource`), described as `@McpResource` describes one
 * (its `cache` aside) at a URI the template matches; without `mimeType`, the template's.
 * @publicApi
 */
export type McpListedResource = Omit<McpResourceOptions, 'cache'> & { _meta?: Record<string, unknown> };

/**
 * The class of an `@McpResourceTemplate`: reads the resource at `uri`, given the template variables it matched;
 * optionally lists the resources it has, which `resources/list` then lists after the fixed resources.
 * @publicApi
 */
export interface McpResourceTemplateHandler<T extends string = string> {
  read(uri: string, variables: McpUriVariables<T>, ctx: McpHandlerContext): McpResourceReturn | Promise<McpResourceReturn>;
  /** The resources this template reads that `resources/list` lists, asked on every `resources/list`. */
  list?(ctx: McpHandlerContext): readonly McpListedResource[] | Promise<readonly McpListedResource[]>;
}
