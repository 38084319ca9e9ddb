import { Injectable, type OnModuleInit } from '@nestjs/common';
import { DiscoveryService, Reflector } from '@nestjs/core';

import { McpConfigurationError } from '../errors/mcp-configuration.error.js';
import { MountAssignment } from '../options/mount-assignment.js';
import { ProtocolSchema } from '../protocol/protocol-schema.js';
import { isPlainObject } from '../util/is-plain-object.js';
import { providerClasses, singletonInstance } from '../util/provider-classes.js';
import { MCP_PROMPT_METADATA } from './mcp-prompt.decorator.js';
import { checkPromptOptions } from './prompt-definition.js';
import type { McpPromptOptions } from './prompt.interfaces.js';
import { PromptRegistry } from './prompt.registry.js';
import { buildPrompt, type PromptBuildKit } from './wired-prompt.js';

/**
 * Discovers every `@McpPrompt` provider at module init, checks its declaration and wires it in. A prompt must be a
 * singleton: it is built once, with its dependencies injected; one instance is one prompt however many tokens
 * provide it.
 */
@Injectable()
export class PromptExplorer implements OnModuleInit {
  constructor(
    private readonly discovery: DiscoveryService,
    private readonly reflector: Reflector,
    private readonly registry: PromptRegistry,
    private readonly protocol: ProtocolSchema,
    private readonly assignment: MountAssignment,
  ) {}

  onModuleInit(): void {
    const kit: PromptBuildKit = { definitionShape: this.protocol.shape('Prompt'), resultShape: this.protocol.shape('GetPromptResult') };
    const wired = new Set<unknown>();
    for (const { metatype, wrapper } of providerClasses(this.discovery)) {
      const options = this.reflector.get<McpPromptOptions | undefined>(MCP_PROMPT_METADATA, metatype);
      if (options === undefined) continue;
      if (!isPlainObject(options)) throw new McpConfigurationError(`prompt (${metatype.name})`, '@McpPrompt takes an options object with name and description');
      this.registry.checkName(options.name);
      const where = `prompt "${options.name}" (${metatype.name})`;
      if (!this.assignment.serves(wrapper, metatype, where)) continue;
      const instance = singletonInstance(wrapper, where, 'prompt');
      if (wired.has(instance)) continue;
      wired.add(instance);
      checkPromptOptions(options, where);
      this.registry.wireIn(buildPrompt(options, instance, kit, where));
    }
  }
}
