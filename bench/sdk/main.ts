// The official MCP TypeScript SDK v2 server with the same tools, mounted on node:http as its serving guide shows:
// `createMcpHandler(factory)` wrapped once by `toNodeHandler`, behind the localhost Host and Origin guards.
// Input schemas are the same JSON Schema documents, registered through the SDK's `fromJsonSchema` (its default,
// runtime-selected validator: AJV with formats on Node.js), built once at module scope as the guide advises.
import { createServer } from 'node:http';

import { localhostHostValidation, localhostOriginValidation, toNodeHandler } from '@modelcontextprotocol/node';
import { createMcpHandler, fromJsonSchema, McpServer } from '@modelcontextprotocol/server';

import { ECHO_INPUT_SCHEMA, VALID_TEXT, VALIDATE_INPUT_SCHEMA, fillerCount, fillerToolDefinitions, serverEnv } from '../common/bench-data.js';

const env = serverEnv();

/** The input schemas, wrapped (and compiled) once: the factory below runs on every request. */
const echoInput = fromJsonSchema<{ text: string }>(ECHO_INPUT_SCHEMA);
const validateInput = fromJsonSchema(VALIDATE_INPUT_SCHEMA);
const fillers = fillerToolDefinitions(fillerCount(env.tools, 2)).map((definition) => ({ ...definition, input: fromJsonSchema<{ id: string }>(definition.inputSchema) }));

/** The per-request server factory: a fresh `McpServer` with the bench tools registered. */
const handler = createMcpHandler(() => {
  const server = new McpServer({ name: 'sdk-bench', version: '0.1.0' });
  server.registerTool('echo', { description: 'Echoes the given text back.', inputSchema: echoInput }, async ({ text }) => ({ content: [{ type: 'text', text }] }));
  server.registerTool('validate', { description: 'Validates a user record against its schema.', inputSchema: validateInput }, async () => ({
    content: [{ type: 'text', text: VALID_TEXT }],
  }));
  for (const filler of fillers)
    server.registerTool(filler.name, { description: filler.description, inputSchema: filler.input }, async ({ id }) => ({ content: [{ type: 'text', text: id }] }));
  return server;
});

const nodeHandler = toNodeHandler(handler);
const validateHost = localhostHostValidation();
const validateOrigin = localhostOriginValidation();

createServer((req, res) => {
  if (!validateHost(req, res) || !validateOrigin(req, res)) return;
  void nodeHandler(req, res);
}).listen(env.port, env.host, () => console.log(`SDK v2 server listening on http://${env.host}:${env.port}/mcp`));
