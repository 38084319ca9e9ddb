import { Module, Optional, type DynamicModule, type NestModule, type Provider, type Type } from '@nestjs/common';
import { DiscoveryModule, ModuleRef } from '@nestjs/core';

import { COMPLETION_SOURCES_PROVIDER } from './completion/completion-source.js';
import { McpAuth, NoopAuth } from './contracts/mcp-auth.interface.js';
import { McpEventBus } from './contracts/mcp-event-bus.js';
import { McpTaskStore } from './contracts/mcp-task-store.js';
import { RequestStateCodec } from './contracts/request-state-codec.js';
import { ShutdownDeadline } from './contracts/shutdown-deadline.js';
import { McpConfigurationError, got } from './errors/mcp-configuration.error.js';
import { createMcpController } from './mcp.controller.js';
import { MCP_MODULE_OPTIONS, McpConfigurableModule, type McpModuleAsyncOptions } from './mcp.module-definition.js';
import { ListPages } from './methods/list-pages.js';
import { METHOD_HANDLER_PROVIDERS } from './methods/method-handlers.js';
import { MethodRouter } from './methods/method-router.js';
import { RequestsUnderWay } from './methods/requests-under-way.js';
import { CAPABILITY_SOURCES_PROVIDER, ServerCapabilities } from './methods/server-capabilities.js';
import { MountOnHost } from './mount-on-host.js';
import { HmacRequestStateCodec } from './mrtr/hmac-request-state-codec.js';
import { MrtrRounds } from './mrtr/mrtr-rounds.js';
import { PendingInputRequests } from './mrtr/pending-input-requests.js';
import type { McpModuleExtras, McpModuleOptions, McpResolvedOptions } from './options/mcp-module-options.interface.js';
import { MCP_MOUNT_PATH, MCP_OPTIONS } from './options/mcp-options.tokens.js';
import { MountAssignment } from './options/mount-assignment.js';
import { mountVersion, normalizeMountPath, resolveOptions } from './options/resolve-options.js';
import { CHAIN_GUARDS, PostChainGuard } from './post-chain.js';
import { PromptExplorer } from './prompts/prompt.explorer.js';
import { PromptRegistry } from './prompts/prompt.registry.js';
import { ArrivingBodies } from './protocol/arriving-bodies.js';
import { HeaderAnnotationLookup } from './protocol/header-annotation-lookup.js';
import { LegacyProtocolSchema } from './protocol/legacy-schema.js';
import { ProtocolSchema } from './protocol/protocol-schema.js';
import { ResourceExplorer } from './resources/resource.explorer.js';
import { ResourceRegistry } from './resources/resource.registry.js';
import { LegacyCancellations } from './response/legacy-cancellations.js';
import { McpExceptionFilter } from './response/mcp-exception.filter.js';
import { MountClosing } from './response/mount-closing.js';
import { WaitingAnswers } from './response/waiting-answers.js';
import { InProcessEventBus } from './subscriptions/in-process-event-bus.js';
import { ListenStreams } from './subscriptions/listen-streams.js';
import { SubscriptionCapabilities } from './subscriptions/subscription-capabilities.js';
import { InProcessTaskStore } from './tasks/in-process-task-store.js';
import { TaskRuns } from './tasks/task-runs.js';
import { TasksProtocolSchema } from './tasks/tasks-schema.js';
import { TelemetryLogger } from './telemetry/telemetry-logger.js';
import { DispatchService } from './tools/dispatch.service.js';
import { ToolExplorer } from './tools/tool.explorer.js';
import { ToolRegistry } from './tools/tool.registry.js';
import { LateBound, SeamBindings } from './util/late-bound.js';
import { OpenMountWarning } from './wire/open-mount-warning.js';
import { ProtectedResourceMetadataRoute } from './wire/protected-resource-metadata.route.js';

/** A seam given as an option: an instance as given, a class from the host's providers (late-bound) or built with injection. */
async function resolveSeam<T extends object>(given: T | Type<T> | undefined, fallback: () => T, moduleRef: ModuleRef, bindings: SeamBindings): Promise<T> {
  if (given === undefined) return fallback();
  if (typeof given !== 'function') return given;
  try {
    moduleRef.get(given, { strict: false }); // throws unless the host provides it
  } catch {
    return moduleRef.create(given);
  }
  const seam = new LateBound(given, moduleRef);
  bindings.pending.push(seam);
  return seam.instance;
}

/**
 * Mounts a stateless MCP server (2026-07-28, Streamable HTTP) serving the application's tools, resources and prompts
 * at `path`; import it once per mount. Exports the chain guards (and what they inject) for the host's own routes, and
 * the event bus (`McpEventBus`) the application publishes changes on.
 * @example
 * ```ts
 * @Module({ imports: [McpModule.forRoot({ path: 'mcp', serverInfo: { name: 'tasks', version: '1.0.0' } })], providers: [TasksTool] })
 * export class AppModule {}
 * ```
 * @publicApi
 */
@Module({})
export class McpModule extends McpConfigurableModule implements NestModule {
  private readonly mountOnHost: MountOnHost;

  /** @throws {McpConfigurationError} for the bare class among a module's imports: only `forRoot`/`forRootAsync` mount */
  constructor(@Optional() mountOnHost?: MountOnHost) {
    super();
    if (!mountOnHost)
      throw new McpConfigurationError(
        'McpModule',
        "is imported as a bare class, which mounts nothing: import McpModule.forRoot({ serverInfo: { name, version } }) (or forRootAsync), once per mount; to reach a mount's guards and event bus from another module, import that module or give the mount isGlobal: true",
      );
    this.mountOnHost = mountOnHost;
  }

  /** Nest's middleware step, the last before routes are registered: the mount prepares the host's framework. */
  configure(): void {
    this.mountOnHost.beforeRoutes();
  }

  /**
   * Mounts an MCP server at `path` (default `'mcp'`) with these options: `serverInfo` is required, any unknown key or
   * wrong value stops the application with a `McpConfigurationError` naming the option. The extras (`path`, `version`,
   * `isGlobal`) sit beside the options. See the README's Options table.
   */
  static override forRoot(options: McpModuleOptions & McpModuleExtras): DynamicModule {
    McpModule.requireObject(options, 'McpModule options', 'an object with serverInfo');
    return McpModule.mount(super.forRoot(options), options);
  }

  /**
   * Mounts an MCP server whose options a provider builds (`useFactory` with `inject`, `useClass` or `useExisting` of
   * an `McpOptionsFactory`), `ConfigService` for instance. The extras (`path`, `version`, `isGlobal`) are given
   * here, beside the factory, never returned by it: a route is fixed before the options resolve.
   */
  static override forRootAsync(options: McpModuleAsyncOptions): DynamicModule {
    McpModule.requireObject(options, 'McpModule.forRootAsync options', 'an object with useFactory, useClass or useExisting');
    return McpModule.mount(super.forRootAsync(options), options);
  }

  /** Refuses options that are no object before Nest's module builder reads them (it would throw a bare TypeError). */
  private static requireObject(options: unknown, where: string, what: string): void {
    if (typeof options !== 'object' || options === null) throw new McpConfigurationError(where, `must be ${what}${got(options)}`);
  }

  private static mount(base: DynamicModule, extras: McpModuleExtras): DynamicModule {
    const path = normalizeMountPath(extras.path ?? 'mcp');
    const version = mountVersion(extras.version);
    const providers: Provider[] = [
      ...(base.providers ?? []),
      { provide: MCP_MOUNT_PATH, useValue: path },
      { provide: MCP_OPTIONS, useFactory: resolveOptions, inject: [MCP_MODULE_OPTIONS, MCP_MOUNT_PATH] },
      SeamBindings,
      {
        provide: McpAuth,
        useFactory: (options: McpResolvedOptions, ref: ModuleRef, bindings: SeamBindings) => resolveSeam(options.auth, () => new NoopAuth(), ref, bindings),
        inject: [MCP_OPTIONS, ModuleRef, SeamBindings],
      },
      {
        provide: RequestStateCodec,
        useFactory: ({ requestState }: McpResolvedOptions, ref: ModuleRef, bindings: SeamBindings) =>
          resolveSeam(requestState.codec, () => new HmacRequestStateCodec(requestState.secrets), ref, bindings),
        inject: [MCP_OPTIONS, ModuleRef, SeamBindings],
      },
      {
        provide: McpEventBus,
        useFactory: (options: McpResolvedOptions, ref: ModuleRef, bindings: SeamBindings) => resolveSeam(options.eventBus, () => new InProcessEventBus(), ref, bindings),
        inject: [MCP_OPTIONS, ModuleRef, SeamBindings],
      },
      {
        provide: McpTaskStore,
        useFactory: ({ tasks }: McpResolvedOptions, ref: ModuleRef, bindings: SeamBindings) =>
          resolveSeam(tasks.store, () => new InProcessTaskStore(tasks.maxTasks), ref, bindings),
        inject: [MCP_OPTIONS, ModuleRef, SeamBindings],
      },
      { provide: ProtocolSchema, useFactory: () => ProtocolSchema.vendored() },
      LegacyProtocolSchema,
      TasksProtocolSchema,
      { provide: HeaderAnnotationLookup, useExisting: ToolRegistry },
      {
        provide: TelemetryLogger,
        useFactory: (options: McpResolvedOptions) => new TelemetryLogger(options.telemetryLogger),
        inject: [MCP_OPTIONS],
      },
      ...CHAIN_GUARDS,
      PostChainGuard,
      McpExceptionFilter,
      ProtectedResourceMetadataRoute,
      OpenMountWarning,
      MountOnHost,
      MountAssignment,
      ToolRegistry,
      ToolExplorer,
      DispatchService,
      PromptRegistry,
      PromptExplorer,
      ResourceRegistry,
      ResourceExplorer,
      COMPLETION_SOURCES_PROVIDER,
      SubscriptionCapabilities,
      ListenStreams,
      ServerCapabilities,
      CAPABILITY_SOURCES_PROVIDER,
      MrtrRounds,
      PendingInputRequests,
      LegacyCancellations,
      TaskRuns,
      MountClosing,
      { provide: ShutdownDeadline, useExisting: MountClosing },
      WaitingAnswers,
      ArrivingBodies,
      ListPages,
      ...METHOD_HANDLER_PROVIDERS,
      RequestsUnderWay,
      MethodRouter,
    ];
    return {
      ...base,
      imports: [...(base.imports ?? []), DiscoveryModule],
      controllers: [createMcpController(path, version)],
      providers,
      exports: [
        MCP_OPTIONS,
        McpAuth,
        McpEventBus,
        ShutdownDeadline,
        ArrivingBodies,
        WaitingAnswers,
        ProtocolSchema,
        LegacyProtocolSchema,
        HeaderAnnotationLookup,
        ...CHAIN_GUARDS,
      ],
    };
  }
}
