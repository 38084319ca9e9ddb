#!/usr/bin/env node
// The sample app for bench/soak.mjs: imports its built main (which listens on PORT) and writes one line
// `soak-memory {"t":…,"rss":…,"heapTotal":…,"heapUsed":…,"external":…,"arrayBuffers":…}` (process.memoryUsage(),
// bytes) to stderr every SOAK_MEM_INTERVAL_MS (default 1000), so the soak can read the V8 heap without an inspector.
import { fileURLToPath, pathToFileURL } from 'node:url';

const main = process.env.SOAK_SAMPLE_MAIN || fileURLToPath(new URL('../dist-sample/sample/src/main.js', import.meta.url));
const every = Number(process.env.SOAK_MEM_INTERVAL_MS || 1000);

setInterval(() => process.stderr.write(`soak-memory ${JSON.stringify({ t: Date.now(), ...process.memoryUsage() })}\n`), every).unref();
await import(pathToFileURL(main).href);
