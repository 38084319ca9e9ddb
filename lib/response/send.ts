import type { ServerResponse } from 'node:http';

/** Writes JSON on the raw Node response (adapter-neutral); a no-op once finished, so a late writer cannot throw. */
export function sendJson(res: ServerResponse, status: number, body: unknown, headers: Readonly<Record<string, string>> = {}): void {
  if (res.headersSent || res.writableEnded || res.destroyed) return;
  sendJsonText(res, status, JSON.stringify(body), headers);
}

/** {@link sendJson} for a body already serialized. */
export function sendJsonText(res: ServerResponse, status: number, json: string, headers: Readonly<Record<string, string>> = {}): void {
  if (res.headersSent || res.writableEnded || res.destroyed) return;
  res.statusCode = status;
  for (const [name, value] of Object.entries(headers)) res.setHeader(name, value);
  res.setHeader('content-type', 'application/json');
  res.setHeader('content-length', Buffer.byteLength(json));
  res.end(json);
}

/** Writes a one-line plain-text answer (the fallthrough's; it speaks no error dialect). */
export function sendText(res: ServerResponse, status: number, text: string, headers: Readonly<Record<string, string>> = {}): void {
  if (res.headersSent || res.writableEnded || res.destroyed) return;
  res.statusCode = status;
  for (const [name, value] of Object.entries(headers)) res.setHeader(name, value);
  res.setHeader('content-type', 'text/plain; charset=utf-8');
  res.end(`${text}\n`);
}

/** Acceptance: the answer to a notification, 202 with an empty body. */
export function sendAcceptance(res: ServerResponse): void {
  if (res.headersSent || res.writableEnded || res.destroyed) return;
  res.statusCode = 202;
  res.setHeader('content-length', '0');
  res.end();
}
