import { LOG_LEVELS } from '../mcp.constants.js';
import * as precompiled from '../schema/mcp-legacy.validators.js';
import { ProtocolSchema, type ProtocolSchemaDocument } from './protocol-schema.js';

const JSONRPC = { const: '2.0' };
const ID = { anyOf: [{ type: 'string' }, { type: 'integer' }] };
const PARAMS = { type: 'object' };
const RESOURCE_URI = { type: 'object', required: ['uri'], properties: { uri: { type: 'string', format: 'uri' } } };
const IMPLEMENTATION = { type: 'object', required: ['name', 'version'], properties: { name: { type: 'string' }, version: { type: 'string' } } };

/** A request of one legacy-only method: its `method` fixed, its `params` as given. */
const request = (method: string, params: Record<string, unknown>, required = true) => ({
  type: 'object',
  required: ['jsonrpc', 'id', 'method', ...(required ? ['params'] : [])],
  properties: { jsonrpc: JSONRPC, id: ID, method: { const: method }, params },
});

/** The legacy schema's id, which its precompiled validators were generated under. */
export const LEGACY_SCHEMA_ID = 'mcp-legacy';

/**
 * The legacy era's own checks, written here: the JSON-RPC envelopes of the `initialize`-based revisions and the
 * requests of the methods only they have (`initialize`, `ping`, `logging/setLevel`, `resources/subscribe`,
 * `resources/unsubscribe`). Every other legacy request is given the legacy envelope at the edge and checked
 * against the vendored 2026-07-28 schema, so one schema judges what the handlers read. Keys beyond those named
 * are allowed, as the legacy schema allows them.
 */
export const LEGACY_SCHEMA_DOCUMENT: ProtocolSchemaDocument = {
  $defs: {
    JSONRPCRequest: { type: 'object', required: ['jsonrpc', 'id', 'method'], properties: { jsonrpc: JSONRPC, id: ID, method: { type: 'string' }, params: PARAMS } },
    JSONRPCNotification: {
      type: 'object',
      required: ['jsonrpc', 'method'],
      properties: { jsonrpc: JSONRPC, method: { type: 'string' }, params: PARAMS },
      not: { required: ['id'] },
    },
    // JSON-RPC 2.0: a response has `result` or `error`, never both.
    JSONRPCResultResponse: {
      type: 'object',
      required: ['jsonrpc', 'id', 'result'],
      properties: { jsonrpc: JSONRPC, id: ID, result: { type: 'object' } },
      not: { required: ['error'] },
    },
    JSONRPCErrorResponse: {
      type: 'object',
      required: ['jsonrpc', 'id', 'error'],
      properties: {
        jsonrpc: JSONRPC,
        id: ID,
        error: { type: 'object', required: ['code', 'message'], properties: { code: { type: 'integer' }, message: { type: 'string' } } },
      },
      not: { required: ['result'] },
    },
    InitializeRequest: request('initialize', {
      type: 'object',
      required: ['protocolVersion', 'capabilities', 'clientInfo'],
      properties: { protocolVersion: { type: 'string' }, capabilities: { type: 'object' }, clientInfo: IMPLEMENTATION },
    }),
    PingRequest: request('ping', PARAMS, false),
    SetLevelRequest: request('logging/setLevel', { type: 'object', required: ['level'], properties: { level: { enum: [...LOG_LEVELS] } } }),
    SubscribeRequest: request('resources/subscribe', RESOURCE_URI),
    UnsubscribeRequest: request('resources/unsubscribe', RESOURCE_URI),
  },
};

/**
 * The legacy era's protocol schema ({@link LEGACY_SCHEMA_DOCUMENT}, compiled ahead of time by
 * `npm run precompile:schema`), injected by its class.
 */
export class LegacyProtocolSchema extends ProtocolSchema {
  constructor() {
    super(LEGACY_SCHEMA_DOCUMENT, LEGACY_SCHEMA_ID, precompiled);
  }
}
