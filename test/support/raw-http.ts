import { request as httpRequest, type Server } from 'node:http';
import { connect } from 'node:net';
import type { AddressInfo } from 'node:net';

/** The loopback port a listening test server is on. */
export function portOf(server: Server): number {
  return (server.address() as AddressInfo).port;
}

/** A response read off the wire. */
export interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  json(): any;
}

/**
 * Sends one request with node:http, exactly as given: any Host header, any verb, a body written as is. Used
 * where supertest would normalise what the test means to send.
 */
export function rawRequest(
  server: Server,
  options: { method?: string; path?: string; headers?: Record<string, string | string[]>; body?: string | Buffer },
): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      { host: '127.0.0.1', port: portOf(server), method: options.method ?? 'POST', path: options.path ?? '/mcp', headers: options.headers ?? {}, setHost: !options.headers || !Object.keys(options.headers).some((h) => h.toLowerCase() === 'host') },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          resolve({ status: res.statusCode ?? 0, headers: res.headers, text, json: () => JSON.parse(text) });
        });
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    if (options.body !== undefined) req.write(options.body);
    req.end();
  });
}

/**
 * Opens a socket, sends the request head and the first part of a body, then stops sending (a stalled read);
 * resolves with everything the server wrote before it closed the connection or `waitMs` passed.
 */
export function stalledRequest(server: Server, head: string, partialBody: string, waitMs: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(portOf(server), '127.0.0.1');
    let received = '';
    const timer = setTimeout(() => {
      socket.destroy();
      resolve(received);
    }, waitMs);
    socket.on('data', (chunk) => {
      received += chunk.toString('utf8');
    });
    socket.on('close', () => {
      clearTimeout(timer);
      resolve(received);
    });
    socket.on('error', reject);
    socket.write(head + partialBody);
  });
}
