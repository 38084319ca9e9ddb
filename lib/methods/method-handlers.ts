import type { Provider } from '@nestjs/common';

import { InitializeHandler } from './initialize.handler.js';
import type { McpMethodHandler } from './method-handler.interface.js';
import { PingHandler } from './ping.handler.js';
import { ServerDiscoverHandler } from './server-discover.handler.js';
import { SetLevelHandler } from './set-level.handler.js';
import { ToolsCallHandler } from './tools-call.handler.js';
import { ToolsListHandler } from './tools-list.handler.js';

/** Every method handler the mount has: the one list method routing reads (a handler not here is never reached). */
export const METHOD_HANDLERS = [ServerDiscoverHandler, InitializeHandler, PingHandler, SetLevelHandler, ToolsListHandler, ToolsCallHandler] as const;

/** Injection token of the method handlers, as instances. */
export const MCP_METHOD_HANDLERS = Symbol.for('nest-mcp.method-handlers');

/** The providers of every handler, and the list of their instances. */
export const METHOD_HANDLER_PROVIDERS: Provider[] = [
  ...METHOD_HANDLERS,
  { provide: MCP_METHOD_HANDLERS, useFactory: (...handlers: McpMethodHandler[]) => handlers, inject: [...METHOD_HANDLERS] },
];
