import { Injectable, type OnModuleInit } from '@nestjs/common';
import { DiscoveryService, Reflector } from '@nestjs/core';
import { MCP_TOOL_METADATA } from '../mcp.constants.js';
import { McpConfigurationError } from '../errors/mcp-configuration.error.js';
import { SchemaCompiler } from '../validation/schema-compiler.js';
import { buildPlainTool } from './plain-tool.js';
import type { McpToolOptions } from './tool.interfaces.js';
import { ToolRegistry } from './tool.registry.js';

/**
 * At module init, discovers every provider marked `@McpTool` through Nest's DI, validates its declaration and
 * wires it into the registry. A refusal is a `McpConfigurationError` and the application does not start. A
 * request-scoped or transient tool is refused (a tool is built once, at module init).
 */
@Injectable()
export class ToolExplorer implements OnModuleInit {
  constructor(
    private readonly discovery: DiscoveryService,
    private readonly reflector: Reflector,
    private readonly registry: ToolRegistry,
  ) {}

  onModuleInit(): void {
    const compiler = new SchemaCompiler();
    for (const wrapper of this.discovery.getProviders()) {
      const metatype = wrapper.metatype;
      if (!metatype || typeof metatype !== 'function') continue;
      const options = this.reflector.get<McpToolOptions | undefined>(MCP_TOOL_METADATA, metatype);
      if (!options) continue;
      const where = `tool ${JSON.stringify(options.name)} (${metatype.name})`;
      if (!wrapper.isDependencyTreeStatic())
        throw new McpConfigurationError(where, 'a tool must be a singleton provider; request-scoped and transient tools are not supported');
      if (!wrapper.instance) throw new McpConfigurationError(where, 'the provider has no instance at module init');
      if (typeof options.description !== 'string' || options.description === '')
        throw new McpConfigurationError(where, 'description must be a non-empty string');
      if (options.inputSchema === undefined)
        throw new McpConfigurationError(where, 'declares no inputSchema (a plain tool must declare its own input schema)');
      this.registry.wireIn(buildPlainTool(options, wrapper.instance as object, compiler));
    }
  }
}
