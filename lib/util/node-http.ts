import type { IncomingMessage, ServerResponse } from 'node:http';

/**
 * The Node request under a host framework's request: Express's request is one, Fastify's wraps one as `raw`. Every
 * check of the mount reads the Node request, whatever the adapter.
 */
export function nodeRequest(req: unknown): IncomingMessage {
  return ((req as { raw?: IncomingMessage }).raw ?? req) as IncomingMessage;
}

/**
 * The Node response under a host framework's response, taken over for the mount to write: Fastify's reply is told
 * (`hijack`) that the route writes the raw response itself, so it never answers a second time.
 */
export function nodeResponse(res: unknown): ServerResponse {
  const reply = res as { raw?: ServerResponse; hijack?: () => void };
  if (reply.raw) {
    reply.hijack?.();
    return reply.raw;
  }
  return res as ServerResponse;
}
