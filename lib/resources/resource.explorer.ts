import { Injectable, type OnModuleInit } from '@nestjs/common';
import { DiscoveryService, Reflector } from '@nestjs/core';

import { bindCompleter, type McpCompleter } from '../completion/completer.js';
import { answeringHttpExceptions } from '../errors/http-exception.js';
import { McpConfigurationError, got } from '../errors/mcp-configuration.error.js';
import { MountAssignment } from '../options/mount-assignment.js';
import { ProtocolSchema } from '../protocol/protocol-schema.js';
import { providerClasses, singletonInstance } from '../util/provider-classes.js';
import { listedResources } from './listed-resources.js';
import { MCP_RESOURCE_TEMPLATE_METADATA } from './mcp-resource-template.decorator.js';
import { MCP_RESOURCE_METADATA } from './mcp-resource.decorator.js';
import { readContents } from './resource-contents.js';
import { checkResourceOptions, checkTemplateOptions, declarationSite, resourceDefinition, templateDefinition } from './resource-declaration.js';
import type { McpResourceOptions, McpResourceHandler, McpResourceTemplateOptions, McpResourceTemplateHandler } from './resource.interfaces.js';
import { ResourceRegistry, type WiredResource, type WiredResourceTemplate } from './resource.registry.js';
import type { UriTemplate } from './uri-template.js';

/**
 * Discovers every `@McpResource` and `@McpResourceTemplate` provider at module init, checks its declaration and
 * wires it in, in discovery order. Like a tool, a resource must be a singleton: it is built once, with its
 * dependencies injected.
 */
@Injectable()
export class ResourceExplorer implements OnModuleInit {
  constructor(
    private readonly discovery: DiscoveryService,
    private readonly reflector: Reflector,
    private readonly registry: ResourceRegistry,
    private readonly protocol: ProtocolSchema,
    private readonly assignment: MountAssignment,
  ) {}

  onModuleInit(): void {
    for (const definition of ['TextResourceContents', 'BlobResourceContents']) this.protocol.validator(definition);
    const wired = new Set<unknown>();
    for (const { metatype, wrapper } of providerClasses(this.discovery)) {
      const resource = this.reflector.get<McpResourceOptions | undefined>(MCP_RESOURCE_METADATA, metatype);
      const template = this.reflector.get<McpResourceTemplateOptions | undefined>(MCP_RESOURCE_TEMPLATE_METADATA, metatype);
      if (resource === undefined && template === undefined) continue;
      const where = resource !== undefined ? declarationSite('resource', resource, metatype.name) : declarationSite('resource template', template, metatype.name);
      if (resource !== undefined && template !== undefined)
        throw new McpConfigurationError(where, 'is marked both @McpResource and @McpResourceTemplate; a class is one or the other');
      if (!this.assignment.serves(wrapper, metatype, where)) continue;
      const instance = singletonInstance(wrapper, where, 'resource');
      if (wired.has(instance)) continue;
      wired.add(instance);
      if (resource !== undefined) this.registry.wireIn(this.resource(resource, instance, where));
      else this.registry.wireInTemplate(this.template(template!, instance, where));
    }
  }

  private resource(options: McpResourceOptions, instance: object, where: string): WiredResource {
    checkResourceOptions(options, where);
    const read = (instance as Partial<McpResourceHandler>).read;
    if (typeof read !== 'function') throw new McpConfigurationError(where, 'a resource must implement read(ctx)');
    const defaults = { uri: options.uri, mimeType: options.mimeType, where };
    return {
      uri: options.uri,
      name: options.name,
      where,
      definition: resourceDefinition(options, this.protocol, where),
      cache: options.cache,
      read: async (ctx) => readContents(await read.call(instance, ctx), defaults, this.protocol),
    };
  }

  private template(options: McpResourceTemplateOptions, instance: object, where: string): WiredResourceTemplate {
    const template = checkTemplateOptions(options, where);
    const { read, list } = instance as Partial<McpResourceTemplateHandler>;
    if (typeof read !== 'function') throw new McpConfigurationError(where, 'a resource template must implement read(uri, variables, ctx)');
    if (list !== undefined && typeof list !== 'function') throw new McpConfigurationError(where, `list must be a method, list(ctx)${got(list)}`);
    const listing = { where, template, mimeType: options.mimeType };
    const resourceShape = list && this.protocol.shape('Resource');
    return {
      uriTemplate: options.uriTemplate,
      name: options.name,
      where,
      definition: templateDefinition(options, this.protocol, where),
      cache: options.cache,
      template,
      completers: this.completers(options, template, instance, where),
      read: async (uri, variables, ctx) => readContents(await read.call(instance, uri, variables, ctx), { uri, mimeType: options.mimeType, where }, this.protocol),
      list: list && (async (ctx) => listedResources(await answeringHttpExceptions(() => list.call(instance, ctx)), listing, resourceShape!)),
    };
  }

  /** A template's completers, each bound to its instance: a function, or the name of one of its methods. */
  private completers(options: McpResourceTemplateOptions, template: UriTemplate, instance: object, where: string): Map<string, McpCompleter> {
    const completers = new Map<string, McpCompleter>();
    for (const [variable, completer] of Object.entries(options.complete ?? {})) {
      if (!template.variables.includes(variable))
        throw new McpConfigurationError(
          where,
          `complete names the variable ${JSON.stringify(variable)}, which the template does not have; its variables: ${template.variables.join(', ')}`,
        );
      const method = bindCompleter(completer, instance);
      if (!method)
        throw new McpConfigurationError(
          where,
          `complete.${variable} must be a function or the name of a method of the class${typeof completer === 'string' ? `, and ${JSON.stringify(completer)} is none` : got(completer)}`,
        );
      completers.set(variable, method as McpCompleter);
    }
    return completers;
  }
}
