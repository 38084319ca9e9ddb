import type { Server } from 'node:http';

import type request from 'supertest';

import { mirroredHeaders, post, rpc } from './mcp-client.js';

/** A tools/call answer as a test reads it: the HTTP status, the JSON-RPC result or error, and the first text block parsed. */
export interface ToolAnswer {
  status: number;
  result: Record<string, unknown> & { isError?: boolean; content?: { type: string; text?: string }[]; structuredContent?: unknown };
  error?: { code: number; message: string; data?: unknown };
  /** The first text block, parsed as JSON when it is JSON, else the text itself. */
  body: any;
}

function read(res: request.Response): ToolAnswer {
  const result = res.body.result ?? {};
  const text = result.content?.[0]?.text;
  let body: unknown;
  try {
    body = text === undefined ? undefined : JSON.parse(text);
  } catch {
    body = text;
  }
  return { status: res.status, result, error: res.body.error, body };
}

/** Calls a tool over real HTTP like a conforming client and reads the answer; `args` undefined sends no arguments. */
export async function callTool(server: Server, name: string, args?: unknown): Promise<ToolAnswer> {
  return read(await post(server, rpc('tools/call', args === undefined ? { name } : { name, arguments: args })));
}

/** Calls a tool with `arguments` spelled as raw JSON text (to send what JSON.stringify would not write, like `2.0`). */
export async function callToolRaw(server: Server, name: string, argumentsJson: string): Promise<ToolAnswer> {
  const body = rpc('tools/call', { name, arguments: '__ARGUMENTS__' });
  const text = JSON.stringify(body).replace('"__ARGUMENTS__"', argumentsJson);
  return read(await post(server, text, mirroredHeaders(body)));
}
