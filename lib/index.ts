/**
 * The public API: consumers import only from here.
 * Proven by: test/sweeps/public-api.sweep.spec.ts (the export list, reviewed on change).
 */
export { McpModule } from './mcp.module.js';
export type { McpModuleAsyncOptions } from './mcp.module-definition.js';
export { MCP_OPTIONS } from './options/mcp-options.tokens.js';
export type {
  McpModuleOptions,
  McpModuleExtras,
  McpResolvedOptions,
  McpServerInfo,
  McpIcon,
  McpCacheHints,
  McpProtectedResourceMetadata,
  McpRequestStateOptions,
  McpLegacyInputRequestOptions,
  McpSubscriptionOptions,
  McpTasksOptions,
  McpOptionsFactory,
} from './options/mcp-module-options.interface.js';
export { SUPPORTED_PROTOCOL_VERSIONS, SERVED_VERBS, META_KEYS } from './mcp.constants.js';
export { HELP_TOOL_NAME } from './mcp.constants.js';
export { CHAIN_GUARDS } from './post-chain.js';

// ① wire checks
export { WIRE_CHECKS } from './wire/wire-checks.js';
export { OriginGuard } from './wire/origin.guard.js';
export { SingletonHeaderGuard } from './wire/singleton-header.guard.js';
export { McpAuthGuard } from './wire/mcp-auth.guard.js';
export { McpAuth, McpAuthDecision, NoopAuth, bearerToken } from './contracts/mcp-auth.interface.js';
export type { McpAuthInfo } from './contracts/mcp-auth.interface.js';
export { rejectionMarkOf } from './contracts/request-record.js';
export { isMountRoute } from './mount-route.js';

// ② parse and validate
export { ParseStepGuard } from './protocol/parse-step.guard.js';
export { EraClassificationGuard } from './protocol/era-classification.guard.js';
export { MessageValidationGuard } from './protocol/message-validation.guard.js';
export { ProtocolFieldsGuard } from './protocol/protocol-fields.guard.js';
export { HeaderBindingGuard } from './protocol/header-binding.guard.js';
export { ProtocolVersionGuard } from './protocol/protocol-version.guard.js';
export type { JsonRpcId } from './contracts/request-record.js';
export { ProtocolSchema } from './protocol/protocol-schema.js';
export type { ProtocolSchemaDocument, ProtocolShape } from './protocol/protocol-schema.js';
export type { SchemaProblem } from './validation/schema-problems.js';
export { HeaderAnnotationLookup } from './protocol/header-annotation-lookup.js';
export type { HeaderAnnotation } from './protocol/header-annotation-lookup.js';

// ③ methods
export { MCP_METHODS, REMOVED_METHODS, LEGACY_METHODS } from './methods/mcp-methods.js';
export type { McpMethod, LegacyMethod } from './methods/mcp-methods.js';

// ④ tools
export { McpTool } from './tools/mcp-tool.decorator.js';
export type { McpToolOptions, McpToolAnnotations, McpToolResult } from './tools/tool.interfaces.js';
export type { McpPlainTool } from './tools/plain-tool.js';
export { McpContext } from './context/mcp-context.js';
export type { McpHandlerContext, McpHostRequest } from './context/mcp-context.js';
export { McpRequestLogger } from './context/request-logger.js';
export type { McpLogMethod } from './context/request-logger.js';
export { LOG_LEVELS, LEGACY_PROTOCOL_VERSIONS, ERAS } from './mcp.constants.js';
export type { McpLogLevel, McpEra } from './mcp.constants.js';
export type { McpProgressToken } from './context/progress-reporter.js';

// multi round-trip requests
export { McpInputRequired, isInputRequired } from './mrtr/input-required.js';
export { RequestStateCodec } from './contracts/request-state-codec.js';
export type { RequestStateOpened } from './contracts/request-state-codec.js';
export { HmacRequestStateCodec } from './mrtr/hmac-request-state-codec.js';
export type {
  McpElicitParams,
  McpElicitFormParams,
  McpElicitFormSchema,
  McpElicitUrlParams,
  McpElicitFieldSchema,
  McpElicitResult,
  McpElicitAnswer,
  McpElicitContent,
  McpElicitFieldValue,
  McpElicitValue,
  McpSampleParams,
  McpSamplingMessage,
  McpSampleResult,
  McpRoot,
  McpInputOptions,
} from './mrtr/input.types.js';
export { dataPath } from './tools/data-path.js';
export { McpAction } from './tools/mcp-action.decorator.js';
export type { McpActionOptions, McpActionSchema, McpToolHooks, JsonSchema } from './tools/tool.interfaces.js';
export { ACTION_SCHEMA_KEYS } from './tools/action-schema.js';
export { DISPATCH_GATES } from './tools/dispatch-gates.js';
export type { DispatchGate } from './tools/dispatch-gates.js';
export type { HelpPointer } from './tools/help-pointer.js';
export type { InputSchemaDigest } from './tools/input-schema.js';
export type { McpHint } from './tools/hint.js';
export { ok, fail, refuse } from './tools/outcome.js';
export type { McpOutcome } from './tools/outcome.js';
export { StructuredContentMismatchError, MalformedToolResultError } from './tools/handler-result.js';

// prompts and completion
export { McpPrompt } from './prompts/mcp-prompt.decorator.js';
export type { McpPromptOptions, McpPromptArgument, McpPromptHandler, McpPromptMessage, McpPromptReturn } from './prompts/prompt.interfaces.js';
export type { McpCompleter, McpCompletionContext } from './completion/completer.js';
export { MalformedPromptResultError } from './prompts/prompt-result.js';
export type { McpContentBlock, McpAnnotations } from './response/content-block.js';

// resources
export { McpResource } from './resources/mcp-resource.decorator.js';
export { McpResourceTemplate } from './resources/mcp-resource-template.decorator.js';
export type {
  McpResourceOptions,
  McpResourceTemplateOptions,
  McpResourceContents,
  McpResourceReturn,
  McpResourceHandler,
  McpResourceTemplateHandler,
  McpListedResource,
} from './resources/resource.interfaces.js';
export type { McpUriVariables, McpUriVariableName } from './resources/uri-template.js';
export { resourceNotFound } from './resources/resource-not-found.js';
export { MalformedResourceResultError } from './resources/resource-contents.js';

// change notifications (subscriptions/listen)
export { McpEventBus, MCP_CHANGE_KINDS, isMcpChangeEvent } from './contracts/mcp-event-bus.js';
export type { McpChangeEvent, McpChangeKind, McpChangeListener, McpUnsubscribe } from './contracts/mcp-event-bus.js';
export { InProcessEventBus } from './subscriptions/in-process-event-bus.js';

// long-running tools (the tasks extension)
export { TASKS_EXTENSION } from './mcp.constants.js';
export { TASKS_METHODS } from './methods/mcp-methods.js';
export type { TasksMethod } from './methods/mcp-methods.js';
export type { McpTaskSupport, McpTaskStart } from './tools/task-mode.js';
export { McpTaskStore, TASK_STATUSES } from './contracts/mcp-task-store.js';
export type { McpTaskRecord, McpTaskStatus } from './contracts/mcp-task-store.js';
export { InProcessTaskStore } from './tasks/in-process-task-store.js';

// ⑤ response, errors, telemetry
export { McpExceptionFilter } from './response/mcp-exception.filter.js';
export { passesContainment, PASSES_CONTAINMENT } from './errors/fault-containment.js';
export { REJECTION_TABLE } from './errors/rejection-table.js';
export type { Rejecter, RejectionReason, RejectionRow } from './errors/rejection-table.js';
export { RejectionException, isRejection } from './errors/rejection.exception.js';
export type { RejectionMark } from './errors/rejection.exception.js';
export { McpMethodError, isMethodError } from './errors/mcp-method.error.js';
export { McpConfigurationError } from './errors/mcp-configuration.error.js';
export { JSON_RPC_CODES } from './errors/json-rpc-codes.js';
export type { JsonRpcCode, JsonRpcError } from './errors/json-rpc-codes.js';
export { MCP_CHANNELS } from './telemetry/channels.js';
export type { McpChannel, McpTelemetryEvents } from './telemetry/channels.js';
export { bounded, quoted } from './util/bounded.js';
