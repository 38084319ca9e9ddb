// One MCP request as a 2026-07-28 client POSTs it to the sample app: its body, its headers, the timed exchange.
import http from 'node:http';

/** The protocol revision the requests speak. */
export const VERSION = '2026-07-28';

/** A function `(method, params, id = 1)` that builds a request body as text, with the `_meta` protocol fields of client `name` (elicitation declared). */
export function envelopeFor(name) {
  const meta = {
    'io.modelcontextprotocol/protocolVersion': VERSION,
    'io.modelcontextprotocol/clientCapabilities': { elicitation: {} },
    'io.modelcontextprotocol/clientInfo': { name, version: '1.0.0' },
  };
  return (method, params, id = 1) => JSON.stringify({ jsonrpc: '2.0', id, method, params: { _meta: meta, ...params } });
}

/** The headers a conforming 2026-07-28 client sends for a body (test/support/mcp-client.ts). */
export function headersFor(method, name) {
  const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': VERSION, 'mcp-method': method };
  if (name !== undefined) headers['mcp-name'] = name;
  return headers;
}

/** POSTs `body` (text or a Buffer) to /mcp and resolves with the status, the answer and the client-observed milliseconds; never rejects. */
export function send(port, agent, body, headers, timeoutMs) {
  return new Promise((resolve) => {
    const started = process.hrtime.bigint();
    const done = (result) => resolve({ ms: Number(process.hrtime.bigint() - started) / 1e6, ...result });
    const req = http.request({ host: '127.0.0.1', port, path: '/mcp', method: 'POST', agent, headers: { ...headers, 'content-length': Buffer.byteLength(body) } }, (res) => {
      const chunks = [];
      res.on('data', (chunk) => chunks.push(chunk));
      res.on('end', () => done({ status: res.statusCode, text: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', (error) => done({ error: error.code ?? error.message }));
    });
    req.setTimeout(timeoutMs, () => req.destroy(new Error('timeout')));
    req.on('error', (error) => done({ error: error.code ?? error.message }));
    req.end(body);
  });
}
