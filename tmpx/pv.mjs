import { performance } from 'node:perf_hooks';
const v = await import('../dist/schema/mcp-2026-07-28.validators.js');
const meta = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientInfo': { name: 'nest-mcp-bench', version: '0.1.0' }, 'io.modelcontextprotocol/clientCapabilities': {} };
const msg = { jsonrpc: '2.0', id: 17, method: 'tools/call', params: { name: 'echo', arguments: { text: 'hello' }, _meta: meta } };
const N = 300000;
for (const name of ['JSONRPCRequest', 'CallToolRequest', 'RequestMetaObject']) {
  for (const variant of ['first', 'all']) {
    const f = v[variant][name]; if (!f) { console.log(name, variant, 'missing'); continue; }
    const input = name === 'RequestMetaObject' ? meta : msg;
    let ok = 0; for (let i = 0; i < 20000; i++) ok += f(input) ? 1 : 0;
    const t = performance.now(); for (let i = 0; i < N; i++) ok += f(input) ? 1 : 0;
    console.log(name, variant, ((performance.now() - t) * 1e6 / N).toFixed(0), 'ns', ok === N + 20000);
  }
}
