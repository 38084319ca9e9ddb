import { Inject, Injectable, type OnModuleInit } from '@nestjs/common';
import { DiscoveryService, MetadataScanner, Reflector } from '@nestjs/core';

import { McpConfigurationError, got } from '../errors/mcp-configuration.error.js';
import { MCP_ACTION_METADATA, MCP_ACTIONS_DECLARED_METADATA, MCP_TOOL_METADATA } from '../mcp.constants.js';
import type { McpResolvedOptions } from '../options/mcp-module-options.interface.js';
import { MCP_OPTIONS } from '../options/mcp-options.tokens.js';
import { MountAssignment } from '../options/mount-assignment.js';
import { ProtocolSchema } from '../protocol/protocol-schema.js';
import { mountName } from '../telemetry/channels.js';
import { bounded } from '../util/bounded.js';
import { duplicateDeclaration, type DeclaringProvider } from '../util/duplicate-declaration.js';
import { isPlainObject } from '../util/is-plain-object.js';
import { providerClasses, singletonInstance } from '../util/provider-classes.js';
import { isStackOverflow } from '../util/stack-overflow.js';
import { SchemaCompiler } from '../validation/schema-compiler.js';
import { buildActionTool, type DeclaredAction } from './action-tool.js';
import { buildHelpTool } from './help.tool.js';
import { buildPlainTool } from './plain-tool.js';
import { checkToolOptions } from './tool-definition.js';
import type { ToolBuildKit } from './tool-hooks.js';
import type { McpActionOptions, McpToolOptions } from './tool.interfaces.js';
import { ToolRegistry } from './tool.registry.js';

/**
 * Runs `build`, the checks and compilation of one tool: a schema nested so deep that a walk over it overflows the
 * stack is refused naming the tool (`where`), not left a bare `RangeError` that names nothing.
 */
function withinStack<T>(where: string, build: () => T): T {
  try {
    return build();
  } catch (thrown) {
    if (!isStackOverflow(thrown)) throw thrown;
    throw new McpConfigurationError(where, `declares a schema nested too deeply to check (${bounded((thrown as Error).message, 100)}): nest it less deeply`);
  }
}

/**
 * Discovers every `@McpTool` provider at module init, builds and wires in each tool, then help when there is a tool
 * to explain. A tool must be a singleton: it is built once, with its dependencies injected.
 */
@Injectable()
export class ToolExplorer implements OnModuleInit {
  constructor(
    private readonly discovery: DiscoveryService,
    private readonly scanner: MetadataScanner,
    private readonly reflector: Reflector,
    private readonly registry: ToolRegistry,
    private readonly protocol: ProtocolSchema,
    private readonly assignment: MountAssignment,
    @Inject(MCP_OPTIONS) private readonly options: McpResolvedOptions,
  ) {}

  onModuleInit(): void {
    const kit: ToolBuildKit = { compiler: new SchemaCompiler(), resultShape: this.protocol.shape('CallToolResult') };
    const wired = new Set<unknown>();
    const declaredBy = new Map<string, DeclaringProvider>();
    // One instance is one tool, however many tokens provide it.
    for (const { metatype, wrapper } of providerClasses(this.discovery)) {
      const options = this.reflector.get<McpToolOptions | null | undefined>(MCP_TOOL_METADATA, metatype);
      if (options === undefined) {
        this.refuseActionsWithoutTool(metatype);
        continue;
      }
      if (!isPlainObject(options)) throw new McpConfigurationError(`tool (${metatype.name})`, `@McpTool takes an options object with name and description${got(options)}`);
      this.registry.checkName(options.name);
      const where = `tool ${JSON.stringify(options.name)} (${metatype.name})`;
      if (!this.assignment.serves(wrapper, metatype, where)) continue;
      const instance = singletonInstance(wrapper, where, 'tool');
      if (wired.has(instance)) continue;
      wired.add(instance);
      const first = declaredBy.get(options.name);
      if (first)
        throw new McpConfigurationError(
          `tool ${JSON.stringify(options.name)}`,
          `is declared more than once (tool names are unique in a server): ${duplicateDeclaration(first, { metatype, wrapper })}`,
        );
      declaredBy.set(options.name, { metatype, wrapper });
      checkToolOptions(options, where);
      const actions = this.actionsOf(Object.getPrototypeOf(instance) as object, `tool ${JSON.stringify(options.name)}`);
      if (options.inputSchema !== undefined) {
        if (actions.length)
          throw new McpConfigurationError(
            where,
            `declares both an inputSchema (a plain tool) and @McpAction methods (${actions.map((a) => `${a.method}()`).join(', ')}); a tool is one or the other`,
          );
        this.registry.wireIn(withinStack(where, () => buildPlainTool(options, instance, kit)));
      } else this.registry.wireIn(withinStack(where, () => buildActionTool(options, instance, actions, kit)));
    }
    // Help explains the tools; a mount with none lists no tool at all, and advertises no tools capability.
    if (this.registry.size > 0) this.registry.wireInHelp(buildHelpTool(this.registry, mountName(this.options.path)));
  }

  /**
   * Refuses a provider class with `@McpAction` methods but no `@McpTool`, which would otherwise serve nothing: one
   * metadata lookup a provider (`@McpAction` marks its class, and a subclass inherits the mark).
   */
  private refuseActionsWithoutTool(metatype: abstract new (...args: never[]) => unknown): void {
    if (!this.reflector.get<boolean | undefined>(MCP_ACTIONS_DECLARED_METADATA, metatype)) return;
    const methods = this.actionsOf(metatype.prototype as object, `class ${metatype.name}`).map((action) => `${action.method}()`);
    throw new McpConfigurationError(
      `class ${metatype.name}`,
      `has @McpAction methods (${methods.join(', ')}) but no @McpTool; add @McpTool({ name, description }) to the class`,
    );
  }

  /**
   * The `@McpAction` methods of a class, from its prototype, in declaration order, each with its action's name and
   * schema; `where` names the tool (or class) in the refusal of an `@McpAction` given no options object.
   */
  private actionsOf(prototype: object, where: string): DeclaredAction[] {
    const found: DeclaredAction[] = [];
    for (const method of this.scanner.getAllMethodNames(prototype)) {
      const options = this.reflector.get<McpActionOptions | null | undefined>(MCP_ACTION_METADATA, (prototype as Record<string, unknown>)[method] as () => unknown);
      if (options === undefined) continue;
      if (!isPlainObject(options)) throw new McpConfigurationError(`${where}, method ${method}()`, `@McpAction takes an options object (the action's schema)${got(options)}`);
      const { name, taskSupport, taskStart, ...schema } = options;
      found.push({ name: name === undefined ? method : name, method, schema, task: { taskSupport, taskStart } });
    }
    return found;
  }
}
