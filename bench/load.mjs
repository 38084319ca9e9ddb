// The load generator: runs one workload against one server with autocannon, a warm-up then a measured run, and
// prints the measured run's figures as one JSON line. run.mjs starts it pinned to its own core (taskset -c 0).
// Usage: node bench/load.mjs '{"url":"http://127.0.0.1:3900/mcp","workload":"echo","connections":10,"warmupSeconds":2,"seconds":5,"pid":1234}'
// With `pid` (the server's process, on Linux) it also prints the server's CPU time per request over the measured run.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

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

/** Clock ticks per second of /proc's CPU times. */
function ticksPerSecond() {
  try {
    return Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' })) || 100;
  } catch {
    return 100;
  }
}

/** The user plus system CPU time a process has used (all its threads), in µs; undefined without /proc. */
function cpuMicros(pid, ticks) {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' '); // from field 3, state
    return ((Number(fields[11]) + Number(fields[12])) / ticks) * 1e6; // fields 14 and 15: utime, stime
  } catch {
    return undefined;
  }
}

const ticks = ticksPerSecond();
if (config.warmupSeconds > 0) await autocannon({ ...options, duration: config.warmupSeconds });
const cpuBefore = config.pid && cpuMicros(config.pid, ticks);
const result = await autocannon({ ...options, duration: config.seconds });
const cpuAfter = config.pid && cpuMicros(config.pid, ticks);

console.log(
  JSON.stringify({
    requests: result.requests.total,
    seconds: result.duration,
    rps: result.requests.total / result.duration,
    p50: result.latency.p50,
    p99: result.latency.p99,
    cpuUs: cpuBefore !== undefined && cpuAfter !== undefined && result.requests.total > 0 ? (cpuAfter - cpuBefore) / result.requests.total : undefined,
    non2xx: result.non2xx,
    errors: result.errors,
    timeouts: result.timeouts,
    mismatches: result.mismatches,
  }),
);
