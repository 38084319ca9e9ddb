// The load generator: runs one workload against one server with autocannon, a warm-up then a measured run, and
// prints the measured run's figures as one JSON line. run.mjs starts it pinned to its own core (taskset -c 0).
// Usage: node bench/load.mjs '{"url":"http://127.0.0.1:3900/mcp","workload":"echo","connections":10,"warmupSeconds":2,"seconds":5}'
import autocannon from 'autocannon';

import { WORKLOADS } from './requests.mjs';

const config = JSON.parse(process.argv[2]);
const workload = WORKLOADS[config.workload];
if (!workload) throw new Error(`unknown workload ${config.workload}`);

/** autocannon's options for this workload: keep-alive connections, a fresh JSON-RPC id per request. */
const options = {
  url: config.url,
  connections: config.connections,
  pipelining: 1,
  idReplacement: true,
  requests: workload.requests,
  verifyBody: workload.verify,
  timeout: 10,
};

if (config.warmupSeconds > 0) await autocannon({ ...options, duration: config.warmupSeconds });
const result = await autocannon({ ...options, duration: config.seconds });

console.log(
  JSON.stringify({
    requests: result.requests.total,
    seconds: result.duration,
    rps: result.requests.total / result.duration,
    p50: result.latency.p50,
    p99: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors,
    timeouts: result.timeouts,
    mismatches: result.mismatches,
  }),
);
