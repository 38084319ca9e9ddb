import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnModuleInit } from '@nestjs/common';
import { ModulesContainer } from '@nestjs/core';

import { McpConfigurationError } from '../errors/mcp-configuration.error.js';
import type { ProviderWrapper } from '../util/provider-classes.js';
import { markedClasses } from '../util/provider-injectable.js';
import { routeEnhancersOn } from '../util/route-enhancers.js';
import type { McpResolvedOptions } from './mcp-module-options.interface.js';
import { MCP_MOUNT_PATH, MCP_OPTIONS } from './mcp-options.tokens.js';

type NestModule = ProviderWrapper['host'] & object;

const logger = new Logger('Mcp');

/** The warning given at startup for a mount that serves no tool, resource or prompt (every method of theirs is 404 + -32601). */
const emptyMountWarning = (path: string, unprovided: readonly string[] = []): string =>
  `the mount "${path}" serves no tool, resource or prompt, so its clients get -32601 (method not found) for tools/list and the ` +
  'like: mark each class @McpTool, @McpResource, @McpResourceTemplate or @McpPrompt, and list it in the providers of a module ' +
  'the application imports (with several mounts, one that imports this mount, or name it in its serves option).' +
  (unprovided.length ? ` Marked but provided by no module: ${unprovided.join(', ')}.` : '');

/** The warning given at startup for a tool, resource or prompt class that carries Nest's route enhancers, which never run for the mount's calls. */
const routeEnhancersWarning = (name: string, enhancers: readonly string[]): string =>
  `class ${name}: ${enhancers.join(', ')} never ${enhancers.length > 1 ? 'run' : 'runs'} for the mount's calls. Nest applies them to a controller's ` +
  'routes, and the mount calls a tool, resource or prompt itself. Check the caller in the handler (ctx.auth, ctx.request) or in the ' +
  "mount's auth provider (docs/tools.md).";

/** How many unprovided classes the empty-mount warning names. */
const UNPROVIDED_NAMED = 10;

/** One mount of the application: its module and its options. */
interface Mount {
  readonly module: NestModule;
  readonly options: McpResolvedOptions;
}

/**
 * Which mount serves which tool, resource and prompt. With one mount, every one. With several, a provider is
 * served by the mounts whose `serves` option lists its class when any does, else by the mounts the module
 * providing it imports; a provider that no mount serves stops the application, named. Read at module init.
 */
@Injectable()
export class MountAssignment implements OnModuleInit, OnApplicationBootstrap {
  private mounts: readonly Mount[] | undefined;
  /** Every provider class the explorers asked about: the tools, resources and prompts the application provides. */
  private readonly provided = new Set<unknown>();
  /** How many of them this mount serves. */
  private servedHere = 0;

  constructor(
    private readonly modules: ModulesContainer,
    @Inject(MCP_OPTIONS) private readonly options: McpResolvedOptions,
  ) {}

  /** Whether this mount serves the provider; `where` names it in the error when no mount does. */
  serves(wrapper: ProviderWrapper, metatype: unknown, where: string): boolean {
    const served = this.assign(wrapper, metatype, where);
    if (served) this.servedHere++;
    return served;
  }

  private assign(wrapper: ProviderWrapper, metatype: unknown, where: string): boolean {
    this.provided.add(metatype);
    const mounts = (this.mounts ??= this.findMounts());
    if (mounts.length <= 1) return true;
    const listed = mounts.some((mount) => mount.options.serves?.includes(metatype as never));
    const serving = mounts.filter((mount) => (listed ? mount.options.serves?.includes(metatype as never) === true : wrapper.host?.imports.has(mount.module) === true));
    if (serving.length === 0)
      throw new McpConfigurationError(
        where,
        `is served by no mount: with several mounts (${mounts.map((m) => JSON.stringify(m.options.path)).join(', ')}), list its class in a mount's serves option, or provide it in a module that imports the mount`,
      );
    return serving.some((mount) => mount.options === this.options);
  }

  /**
   * Once every explorer ran: a class this mount's `serves` lists that is no provided tool, resource or prompt stops
   * the application; a mount that serves none is warned of (a class left out of `providers`, most likely); and the
   * first mount warns of each class carrying route enhancers (`@UseGuards` and the like), which never run for the
   * mount's calls.
   */
  onApplicationBootstrap(): void {
    const serves = this.options.serves ?? [];
    const index = serves.findIndex((listed) => !this.provided.has(listed));
    if (index >= 0)
      throw new McpConfigurationError(
        'option "serves"',
        `serves[${index}] names ${serves[index]!.name}, which no module provides as a tool, resource or prompt: mark it @McpTool, @McpResource, @McpResourceTemplate or @McpPrompt, and list it in a module's providers`,
      );
    if (this.servedHere === 0) logger.warn(emptyMountWarning(this.options.path, this.unprovided()));
    // Every mount's explorers ask about every class, so the first mount speaks for the application, once.
    if ((this.mounts?.[0]?.options ?? this.options) !== this.options) return;
    for (const provided of this.provided) {
      const enhancers = routeEnhancersOn(provided as abstract new (...args: never[]) => unknown);
      if (enhancers.length > 0) logger.warn(routeEnhancersWarning((provided as { name: string }).name || '(anonymous class)', enhancers));
    }
  }

  /** The classes an MCP decorator marked that no module of this application provides (the first few, by name). */
  private unprovided(): string[] {
    const names: string[] = [];
    for (const marked of markedClasses()) {
      if (names.length === UNPROVIDED_NAMED) {
        names.push('…');
        break;
      }
      if (!this.provided.has(marked)) names.push(marked.name || '(anonymous class)');
    }
    return names;
  }

  /** Finds the application's mounts before any explorer asks: two at one path stop it. */
  onModuleInit(): void {
    this.mounts ??= this.findMounts();
  }

  /**
   * The application's mounts. Two at one path (the `version` extra lets routes at one path coexist) are refused:
   * a mount is known by its path (its mount name in events, the binding of its sealed `requestState`).
   */
  private findMounts(): Mount[] {
    const mounts = [...this.modules.values()].flatMap((module) => {
      const options = module.providers.has(MCP_MOUNT_PATH) ? (module.providers.get(MCP_OPTIONS)?.instance as McpResolvedOptions | undefined) : undefined;
      return options ? [{ module, options }] : [];
    });
    const paths = mounts.map((mount) => mount.options.path);
    const twice = paths.find((path, i) => paths.indexOf(path) !== i);
    if (twice !== undefined)
      throw new McpConfigurationError(
        `path "/${twice}"`,
        'is mounted twice: give each McpModule.forRoot its own path (a mount is known by its path, whatever its version; one mount answers several versions with version: [...])',
      );
    return mounts;
  }
}
