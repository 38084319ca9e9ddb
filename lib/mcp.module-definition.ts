import { ConfigurableModuleBuilder, VERSION_NEUTRAL } from '@nestjs/common';

import type { McpModuleExtras, McpModuleOptions } from './options/mcp-module-options.interface.js';

/**
 * The builder behind `McpModule.forRoot`/`forRootAsync`; `path` and `version` are extras because a route is fixed
 * before async options resolve. Every extra needs a default here: Nest keeps only the keys named here out of the options.
 */
export const {
  ConfigurableModuleClass: McpConfigurableModule,
  MODULE_OPTIONS_TOKEN: MCP_MODULE_OPTIONS,
  ASYNC_OPTIONS_TYPE: MCP_ASYNC_OPTIONS_TYPE,
} = new ConfigurableModuleBuilder<McpModuleOptions>({ moduleName: 'Mcp' })
  .setClassMethodName('forRoot')
  .setFactoryMethodName('createMcpOptions')
  .setExtras<McpModuleExtras>({ path: 'mcp', version: VERSION_NEUTRAL, isGlobal: false }, (definition, extras) => ({ ...definition, global: extras.isGlobal === true }))
  .build();

/** What `McpModule.forRootAsync` takes: `useFactory`/`useClass`/`useExisting` for the options, and the extras beside them. @publicApi */
export type McpModuleAsyncOptions = typeof MCP_ASYNC_OPTIONS_TYPE;
