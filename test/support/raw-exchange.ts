import type { Server } from 'node:http';
import { connect } from 'node:net';

import { portOf, type HeaderLine } from './raw-http.js';

/** One HTTP/1.1 answer, parsed strictly from the bytes on the wire. */
export interface WireAnswer {
  status: number;
  /** Header lines in order, names lower-cased. */
  headers: HeaderLine[];
  /** Statuses of interim (1xx) answers that came first. */
  interim: number[];
  body: Buffer;
  /** The body's chunks as the server framed them (chunked encoding; empty otherwise). */
  chunks: Buffer[];
  /** Bytes the server wrote in all, head included. */
  size: number;
}

/** The value of a header sent once (undefined when absent; throws when repeated). */
export function headerOf(answer: WireAnswer, name: string): string | undefined {
  const values = answer.headers.filter(([n]) => n === name).map(([, v]) => v);
  if (values.length > 1) throw new Error(`header ${name} sent ${values.length} times`);
  return values[0];
}

/** The bytes of a request: request line, header lines as given (nothing added), blank line, body. */
export function requestBytes(method: string, path: string, headers: readonly (readonly [string, string | Buffer])[], body: Buffer = Buffer.alloc(0)): Buffer {
  const head: Buffer[] = [Buffer.from(`${method} ${path} HTTP/1.1\r\n`, 'latin1')];
  for (const [name, value] of headers) head.push(Buffer.from(`${name}: `, 'latin1'), Buffer.isBuffer(value) ? value : Buffer.from(value, 'latin1'), Buffer.from('\r\n'));
  return Buffer.concat([...head, Buffer.from('\r\n'), body]);
}

const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;

/** Splits off one head (status line and header lines) ending at the first blank line. */
function parseHead(raw: Buffer, from: number): { status: number; headers: HeaderLine[]; next: number } {
  const end = raw.indexOf('\r\n\r\n', from, 'latin1');
  if (end < 0) throw new Error(`incomplete head: ${JSON.stringify(raw.subarray(from, from + 200).toString('latin1'))}`);
  const [statusLine = '', ...lines] = raw.subarray(from, end).toString('latin1').split('\r\n');
  const match = /^HTTP\/1\.[01] ([1-5]\d\d)(?: [\t\x20-\x7e\x80-\xff]*)?$/.exec(statusLine);
  if (!match) throw new Error(`malformed status line: ${JSON.stringify(statusLine.slice(0, 200))}`);
  const headers: HeaderLine[] = lines.map((line) => {
    const colon = line.indexOf(':');
    const name = line.slice(0, colon);
    const value = line.slice(colon + 1).trim();
    if (colon < 1 || !TOKEN.test(name) || /[\x00-\x08\x0a-\x1f\x7f]/.test(value)) throw new Error(`malformed header line: ${JSON.stringify(line.slice(0, 200))}`);
    return [name.toLowerCase(), value];
  });
  return { status: Number(match[1]), headers, next: end + 4 };
}

/** Splits a chunked body that must end exactly at the end of `raw` (or may stop at a chunk boundary, when `partial`) into its chunks. */
function dechunk(raw: Buffer, from: number, partial: boolean): Buffer[] {
  const parts: Buffer[] = [];
  let at = from;
  for (;;) {
    if (partial && at === raw.length) return parts;
    const eol = raw.indexOf('\r\n', at, 'latin1');
    if (eol < 0) throw new Error('chunked body cut short');
    const size = /^([0-9a-fA-F]+)(;.*)?$/.exec(raw.subarray(at, eol).toString('latin1'));
    if (!size) throw new Error('malformed chunk size');
    const length = parseInt(size[1]!, 16);
    at = eol + 2;
    if (length === 0) {
      if (raw.indexOf('\r\n', at, 'latin1') !== raw.length - 2) throw new Error('malformed chunked trailer or bytes after it');
      return parts;
    }
    if (at + length + 2 > raw.length || raw.toString('latin1', at + length, at + length + 2) !== '\r\n') throw new Error('chunk cut short');
    parts.push(raw.subarray(at, at + length));
    at += length + 2;
  }
}

/**
 * Parses everything a server wrote on a connection it then closed as one answer (after any 1xx): a strict status
 * line, token header names, no control characters in values, the body framed by Content-Length or chunked
 * encoding with nothing after it. Throws, naming the fault, on anything else. `complete: false` accepts a chunked
 * body the client stopped reading at a chunk boundary.
 */
export function parseAnswer(raw: Buffer, { complete = true }: { complete?: boolean } = {}): WireAnswer {
  const interim: number[] = [];
  let head = parseHead(raw, 0);
  while (head.status < 200) {
    interim.push(head.status);
    head = parseHead(raw, head.next);
  }
  const { status, headers, next } = head;
  const names = headers.map(([n]) => n);
  const answer: WireAnswer = { status, headers, interim, body: Buffer.alloc(0), chunks: [], size: raw.length };
  if (names.includes('transfer-encoding')) {
    if (names.includes('content-length')) throw new Error('both Content-Length and Transfer-Encoding');
    if (headerOf(answer, 'transfer-encoding') !== 'chunked') throw new Error('unknown transfer coding');
    answer.chunks = dechunk(raw, next, !complete);
    answer.body = Buffer.concat(answer.chunks);
  } else if (names.includes('content-length')) {
    const length = Number(headerOf(answer, 'content-length'));
    if (!Number.isSafeInteger(length) || raw.length - next !== length) throw new Error(`Content-Length ${length} but ${raw.length - next} body bytes`);
    answer.body = raw.subarray(next);
  } else {
    answer.body = raw.subarray(next); // delimited by the close
  }
  if ((status === 204 || status === 304) && answer.body.length > 0) throw new Error(`${status} with a body`);
  return answer;
}

/** What an exchange over a raw socket ended with. */
export interface RawExchange {
  /** Every byte the server wrote. */
  raw: Buffer;
  /** Whether the server closed the connection (false: `timeoutMs` passed first). */
  closed: boolean;
}

/**
 * Writes `bytes` on a fresh loopback connection and collects what the server writes until it closes the
 * connection, `timeoutMs` passes, or `stopWhen` holds of what arrived (the client then leaves). A client reset
 * (EPIPE, ECONNRESET) ends the exchange like a close.
 */
export function exchange(server: Server, bytes: Buffer, timeoutMs = 10_000, stopWhen?: (received: Buffer) => boolean): Promise<RawExchange> {
  return new Promise((resolve) => {
    const socket = connect(portOf(server), '127.0.0.1');
    const chunks: Buffer[] = [];
    let settled = false;
    const done = (closed: boolean) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      resolve({ raw: Buffer.concat(chunks), closed });
    };
    const timer = setTimeout(() => done(false), timeoutMs);
    socket.on('data', (chunk) => {
      chunks.push(chunk);
      if (stopWhen?.(Buffer.concat(chunks))) done(false);
    });
    socket.on('end', () => done(true));
    socket.on('close', () => done(true));
    socket.on('error', () => undefined); // the close that follows ends the exchange
    socket.write(bytes);
  });
}
