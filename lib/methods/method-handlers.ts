import type { Provider } from '@nestjs/common';

import { CompletionCompleteHandler } from './completion-complete.handler.js';
import { InitializeHandler } from './initialize.handler.js';
import type { McpMethodHandler } from './method-handler.interface.js';
import { PingHandler } from './ping.handler.js';
import { PromptsGetHandler } from './prompts-get.handler.js';
import { PromptsListHandler } from './prompts-list.handler.js';
import { ResourcesListHandler } from './resources-list.handler.js';
import { ResourcesReadHandler } from './resources-read.handler.js';
import { ResourcesSubscribeHandler, ResourcesUnsubscribeHandler } from './resources-subscribe.handler.js';
import { ResourcesTemplatesListHandler } from './resources-templates-list.handler.js';
import { ServerDiscoverHandler } from './server-discover.handler.js';
import { SetLevelHandler } from './set-level.handler.js';
import { SubscriptionsListenHandler } from './subscriptions-listen.handler.js';
import { TasksCancelHandler } from './tasks-cancel.handler.js';
import { TasksGetHandler } from './tasks-get.handler.js';
import { TasksUpdateHandler } from './tasks-update.handler.js';
import { ToolsCallHandler } from './tools-call.handler.js';
import { ToolsListHandler } from './tools-list.handler.js';

/** Every method handler the mount has: the one list method routing reads (a handler not here is never reached). */
const METHOD_HANDLERS = [
  ServerDiscoverHandler,
  InitializeHandler,
  PingHandler,
  SetLevelHandler,
  ToolsListHandler,
  ToolsCallHandler,
  PromptsListHandler,
  PromptsGetHandler,
  ResourcesListHandler,
  ResourcesTemplatesListHandler,
  ResourcesReadHandler,
  CompletionCompleteHandler,
  SubscriptionsListenHandler,
  ResourcesSubscribeHandler,
  ResourcesUnsubscribeHandler,
  TasksGetHandler,
  TasksUpdateHandler,
  TasksCancelHandler,
] as const;

/** Injection token of the method handlers, as instances. */
export const MCP_METHOD_HANDLERS = Symbol.for('nest-mcp.method-handlers');

/** The providers of every handler, and the list of their instances. */
export const METHOD_HANDLER_PROVIDERS: Provider[] = [
  ...METHOD_HANDLERS,
  { provide: MCP_METHOD_HANDLERS, useFactory: (...handlers: McpMethodHandler[]) => handlers, inject: [...METHOD_HANDLERS] },
];
