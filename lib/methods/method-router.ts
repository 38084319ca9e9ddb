import { Inject, Injectable } from '@nestjs/common';

import type { McpRequestRecord } from '../contracts/request-record.js';
import { RejectionException } from '../errors/rejection.exception.js';
import { META_KEYS, type McpEra } from '../mcp.constants.js';
import type { McpResolvedOptions } from '../options/mcp-module-options.interface.js';
import { MCP_OPTIONS } from '../options/mcp-options.tokens.js';
import { distilledData, firstProblem } from '../protocol/distilled-error.js';
import { progressTokenProblem } from '../protocol/echoed-values.js';
import { isSharedResult, sharedResult } from '../protocol/json-rpc.js';
import type { McpResult } from '../protocol/json-rpc.js';
import { LegacyProtocolSchema } from '../protocol/legacy-schema.js';
import { ProtocolSchema } from '../protocol/protocol-schema.js';
import { TasksProtocolSchema } from '../tasks/tasks-schema.js';
import { quoted } from '../util/bounded.js';
import { isPlainObject } from '../util/is-plain-object.js';
import { ownJsonCopy } from '../util/own-key.js';
import { numbersOutOfRange } from '../validation/finite-numbers.js';
import type { SchemaProblem } from '../validation/schema-problems.js';
import {
  CACHEABLE_METHODS,
  LEGACY_REQUEST_DEFINITIONS,
  REQUEST_DEFINITIONS,
  TASKS_REQUEST_DEFINITIONS,
  isLegacyMethod,
  isMcpMethod,
  isRemovedMethod,
  isTasksMethod,
  type McpMethod,
} from './mcp-methods.js';
import type { McpMethodHandler, MethodCall } from './method-handler.interface.js';
import { MCP_METHOD_HANDLERS } from './method-handlers.js';
import { RequestsUnderWay } from './requests-under-way.js';

/** The server capability a method's family is served under, by the name before its `/`: named when it is not served. */
const GATING_CAPABILITIES: Readonly<Record<string, string>> = { tools: 'tools', resources: 'resources', prompts: 'prompts', completion: 'completions', logging: 'logging' };

/** What the refusal of a 2026-07-28 method in a request classed legacy adds: how a request is classed modern. */
const MODERN_ONLY = ` is a method of protocol version 2026-07-28, and this request reads as one of an earlier version: a 2026-07-28 request names its version in params._meta["${META_KEYS.protocolVersion}"] and the MCP-Protocol-Version header`;

/**
 * Method routing, the last stage before a handler, per era: an unserved method (unknown in the era, removed in
 * 2026-07-28, or behind an unadvertised capability) is 404 + -32601, a request breaking the method's schema
 * definition (or holding a number out of range outside a tool's arguments) is -32602, then the handler runs, its
 * request counted among the requests under way (refused 503 when they would hold too much). The
 * result leaves in its era's shape: on the modern era with the serverInfo `_meta` and, for cacheable methods'
 * complete results, the caching hints; on the legacy era without the fields its revisions do not have
 * (`resultType`, `ttlMs`, `cacheScope`), so handlers stay era-neutral.
 */
@Injectable()
export class MethodRouter {
  /** Per era, each method's handler and the schema definition its whole request is checked against, fixed at init. */
  private readonly handlers: Record<McpEra, Map<string, { handler: McpMethodHandler; definition: string; checks: ProtocolSchema }>> = {
    modern: new Map(),
    legacy: new Map(),
  };
  private readonly cache: McpResolvedOptions['cache'];
  /** Whether the mount serves 2026-07-28 requests (`eras` other than `legacy`). */
  private readonly servesModern: boolean;
  private readonly serverInfo: Readonly<Record<string, unknown>>;
  /** Shared results in their era's shape, by the handler's result. */
  private readonly shapedShared: Record<McpEra, WeakMap<McpResult, McpResult>> = { modern: new WeakMap(), legacy: new WeakMap() };

  constructor(
    @Inject(MCP_OPTIONS) options: McpResolvedOptions,
    private readonly schema: ProtocolSchema,
    private readonly legacySchema: LegacyProtocolSchema,
    private readonly tasksSchema: TasksProtocolSchema,
    @Inject(MCP_METHOD_HANDLERS) handlers: readonly McpMethodHandler[],
    private readonly underWay: RequestsUnderWay,
  ) {
    for (const handler of handlers) {
      const [definition, checks] = this.definition(handler.method);
      checks.validator(definition);
      for (const era of handler.eras) this.handlers[era].set(handler.method, { handler, definition, checks });
    }
    this.cache = options.cache;
    this.servesModern = options.eras !== 'legacy';
    this.serverInfo = options.serverInfo as unknown as Readonly<Record<string, unknown>>;
  }

  /** Routes a request the POST chain accepted; resolves to the result the answer stream sends. */
  async route(call: Omit<MethodCall, 'params'>): Promise<McpResult> {
    const method = call.record.method!;
    const era = call.record.era ?? 'modern';
    const routed = this.handlers[era].get(method);
    if (!routed || !routed.handler.served()) {
      // tasks/get, tasks/update and tasks/cancel are the tasks extension's (two of them left the core for it).
      if (era === 'modern' && isTasksMethod(method))
        throw new RejectionException(
          'method-routing',
          isRemovedMethod(method) ? 'removed_method' : 'unknown_method',
          `Method not found: ${method} belongs to the tasks extension, which this server does not offer (no tool runs as a task).`,
        );
      if (era === 'modern' && isRemovedMethod(method))
        throw new RejectionException('method-routing', 'removed_method', `Method not found: ${method} was removed in protocol version 2026-07-28.`);
      const known = era === 'modern' ? isMcpMethod(method) : isLegacyMethod(method);
      const gate = known ? GATING_CAPABILITIES[method.slice(0, method.indexOf('/'))] : undefined;
      const why = gate ? ` (it advertises no "${gate}" capability)` : '';
      // A 2026-07-28 method sent without what marks a 2026-07-28 request (a hand-written probe, say) reads as legacy.
      const modernOnly = era === 'legacy' && this.servesModern && this.handlers.modern.get(method)?.handler.served() === true;
      const said = known ? ` is not served by this server${why}` : modernOnly ? MODERN_ONLY : '';
      throw new RejectionException('method-routing', 'unknown_method', `Method not found: ${quoted(method, 80)}${said}.`);
    }
    const { handler, definition, checks } = routed;
    const schemaProblems = checks.check(definition, call.record.message);
    const problems = schemaProblems.length ? schemaProblems : valueProblems(method, call.record);
    if (problems.length) {
      const data = distilledData(problems);
      throw new RejectionException('method-routing', 'invalid_params', `Invalid params for ${method}${firstProblem(data)}.`, { data });
    }
    const params = (call.record.message!.params ?? {}) as Record<string, unknown>;
    const bytes = handler.boundApart ? 0 : this.underWay.admit(call.record);
    let result: McpResult;
    try {
      result = await handler.handle({ record: call.record, request: call.request, hostRequest: call.hostRequest, answer: call.answer, params });
    } finally {
      this.underWay.release(bytes);
    }
    if (!isSharedResult(result)) return era === 'legacy' ? legacyShape(result) : this.finish(method, result);
    // A shared result is shaped once per era, and stays shared.
    let shaped = this.shapedShared[era].get(result);
    if (!shaped) this.shapedShared[era].set(result, (shaped = sharedResult(era === 'legacy' ? legacyShape(result) : this.finish(method, result))));
    return shaped;
  }

  /** The schema definition a method's whole request is checked against, and the schema holding it. */
  private definition(method: string): [string, ProtocolSchema] {
    if (isTasksMethod(method)) return [TASKS_REQUEST_DEFINITIONS[method], this.tasksSchema];
    return Object.hasOwn(LEGACY_REQUEST_DEFINITIONS, method)
      ? [LEGACY_REQUEST_DEFINITIONS[method as keyof typeof LEGACY_REQUEST_DEFINITIONS], this.legacySchema]
      : [REQUEST_DEFINITIONS[method as McpMethod], this.schema];
  }

  /** The result as sent: cache fields where they apply, and `serverInfo` in its `_meta` (a copy only ever serialized). */
  private finish(method: string, result: McpResult): McpResult {
    const finished = ownJsonCopy(result);
    if (CACHEABLE_METHODS.has(method) && finished.resultType === 'complete') {
      finished.ttlMs ??= this.cache.ttlMs;
      finished.cacheScope ??= this.cache.cacheScope;
    }
    const meta = ownJsonCopy((result._meta ?? {}) as Record<string, unknown>);
    meta[META_KEYS.serverInfo] = this.serverInfo;
    finished._meta = meta;
    return finished;
  }
}

/**
 * What the schema cannot see in a request that conforms to it: a progress token its notifications could not repeat,
 * else each number JSON spells but cannot hold (`1e400`) outside a tool's arguments, which its value gate answers
 * for (as a tool error the model can read, where untyped properties are checked too).
 */
function valueProblems(method: string, record: McpRequestRecord): readonly SchemaProblem[] {
  const message = record.message!;
  const token = progressTokenProblem(message);
  if (token) return [token];
  const params = message.params as Record<string, unknown> | undefined;
  const skipped = method === 'tools/call' && isPlainObject(params?.arguments) ? params.arguments : undefined;
  return numbersOutOfRange(message, { inRange: record.numbersInRange, skipped }).problems;
}

/**
 * A result in the legacy revisions' shape: without the fields only 2026-07-28 has, and without a `structuredContent`
 * that is not an object (2026-07-28 allows any JSON value; the 2025 revisions an object only).
 */
function legacyShape(result: McpResult): McpResult {
  const { resultType: _resultType, ttlMs: _ttlMs, cacheScope: _cacheScope, ...rest } = result;
  if ('structuredContent' in rest && !isPlainObject(rest.structuredContent)) delete rest.structuredContent;
  return rest as McpResult;
}
