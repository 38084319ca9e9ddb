import { readFileSync } from 'node:fs';
const [file, n, top = 40] = process.argv.slice(2);
const p = JSON.parse(readFileSync(file, 'utf8'));
const self = new Map(); let total = 0;
const walk = (node, chain) => {
  const cf = node.callFrame; const k = `${cf.functionName || '(anon)'} ${cf.url.replace(/.*\/(node_modules\/)?/, '')}:${cf.lineNumber}`;
  const sz = node.selfSize; total += sz; if (sz) self.set(k, (self.get(k) ?? 0) + sz);
  for (const c of node.children) walk(c, chain);
};
walk(p.head, []);
console.log('total bytes/request', (total / Number(n)).toFixed(0));
for (const [k, v] of [...self].sort((a, b) => b[1] - a[1]).slice(0, Number(top))) console.log((v / Number(n)).toFixed(0).padStart(7), k);
