import http, { type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

import { mirroredHeaders, rpc } from './mcp-client.js';

/** A listen request as a client reads it: its status and headers, then every SSE event and comment as it arrives. */
export interface Listener {
  readonly status: number;
  readonly headers: IncomingHttpHeaders;
  /** The JSON-RPC messages received so far, in order. */
  readonly messages: Record<string, any>[];
  /** How many SSE comment lines arrived. */
  comments: number;
  /** Resolves once the response ended (the server closed it or the connection went). */
  readonly ended: Promise<void>;
  /** Waits for the `count`-th message (1-based), or fails after `timeoutMs`. */
  nth(count: number, timeoutMs?: number): Promise<Record<string, any>>;
  /** Stops reading: a client that does not read what it is sent. */
  pause(): void;
  resume(): void;
  /** The client goes away. */
  close(): void;
}

/** Opens `subscriptions/listen` at `path` over a raw connection of its own, resolving once the status line arrived. */
export function listen(server: http.Server, notifications: unknown, id: string | number, headers: Record<string, string> = {}, path = '/mcp'): Promise<Listener> {
  const body = rpc('subscriptions/listen', { notifications }, id);
  const port = (server.address() as AddressInfo).port;
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, path, method: 'POST', agent: false, headers: { ...mirroredHeaders(body), ...headers } }, (res) => {
      const messages: Record<string, any>[] = [];
      const waiters: (() => void)[] = [];
      let buffer = '';
      let endedResolve!: () => void;
      const ended = new Promise<void>((r) => (endedResolve = r));
      res.on('close', () => endedResolve());
      res.on('end', () => endedResolve());
      res.on('error', () => endedResolve());
      res.setEncoding('utf8');
      const listener: Listener = {
        status: res.statusCode ?? 0,
        headers: res.headers,
        messages,
        comments: 0,
        ended,
        async nth(count, timeoutMs = 2000) {
          const deadline = Date.now() + timeoutMs;
          while (messages.length < count) {
            if (Date.now() > deadline) throw new Error(`waited ${timeoutMs} ms for message ${count}; got ${JSON.stringify(messages)}`);
            await new Promise<void>((r) => {
              waiters.push(r);
              setTimeout(r, 20);
            });
          }
          return messages[count - 1]!;
        },
        pause: () => res.pause(),
        resume: () => res.resume(),
        close: () => req.destroy(),
      };
      res.on('data', (chunk: string) => {
        buffer += chunk;
        let end: number;
        while ((end = buffer.indexOf('\n\n')) >= 0) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          if (block.startsWith(':')) listener.comments++;
          const data = block
            .split('\n')
            .filter((line) => line.startsWith('data: '))
            .map((line) => line.slice(6))
            .join('\n');
          if (data) messages.push(JSON.parse(data) as Record<string, any>);
        }
        for (const wake of waiters.splice(0)) wake();
      });
      res.on('end', () => {
        if (res.headers['content-type']?.startsWith('application/json') && buffer) messages.push(JSON.parse(buffer));
        for (const wake of waiters.splice(0)) wake();
      });
      resolve(listener);
    });
    req.on('error', reject);
    req.end(JSON.stringify(body));
  });
}
