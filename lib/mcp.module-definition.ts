import { ConfigurableModuleBuilder } from '@nestjs/common';
import type { McpModuleExtras, McpModuleOptions } from './mcp-module-options.interface.js';

/**
 * The `ConfigurableModuleBuilder` output behind `McpModule.forRoot` / `forRootAsync`. `path` is an extra: the
 * mount's route is fixed when its controller is declared, before asynchronous options resolve.
 */
export const {
  ConfigurableModuleClass: McpConfigurableModule,
  MODULE_OPTIONS_TOKEN: MCP_MODULE_OPTIONS,
  OPTIONS_TYPE: MCP_OPTIONS_TYPE,
  ASYNC_OPTIONS_TYPE: MCP_ASYNC_OPTIONS_TYPE,
} = new ConfigurableModuleBuilder<McpModuleOptions>({ moduleName: 'Mcp' })
  .setClassMethodName('forRoot')
  .setExtras<McpModuleExtras>({ path: 'mcp' }, (definition) => definition)
  .build();

/** Injection token of the validated options, defaults applied (`McpResolvedOptions`). @publicApi */
export const MCP_OPTIONS = Symbol.for('nest-mcp.options');

/** Injection token of the mount path as given to `forRoot` (an extra). */
export const MCP_MOUNT_PATH = Symbol.for('nest-mcp.mount-path');
