// The sample app in a child process, pinned to a core of its own, and what it costs: its CPU time and RSS from /proc.
import { execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import os from 'node:os';
import { fileURLToPath } from 'node:url';

import { freePort } from './free-port.mjs';

/** The sample's built main.js: BENCH_SAMPLE_MAIN, else dist-sample/sample/src/main.js. */
export const SAMPLE_MAIN = process.env.BENCH_SAMPLE_MAIN || fileURLToPath(new URL('../dist-sample/sample/src/main.js', import.meta.url));

/** The cores this process may run on, read when this module loads (before a script pins itself to one). */
export const CORES = os.availableParallelism();

let clockTicks;
const ticksPerSecond = () => {
  if (clockTicks === undefined) {
    try {
      clockTicks = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' })) || 100;
    } catch {
      clockTicks = 100;
    }
  }
  return clockTicks;
};

/** The CPU time a process has used, in milliseconds (user + system, every thread), from /proc; NaN off Linux. */
export function cpuMs(pid) {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / ticksPerSecond(); // utime, stime: fields 14 and 15 of stat
  } catch {
    return NaN;
  }
}

/** VmRSS of a process in MiB, from /proc; NaN off Linux. */
export function rssMiB(pid) {
  try {
    return Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))[1]) / 1024;
  } catch {
    return NaN;
  }
}

function hasTaskset() {
  try {
    execFileSync('taskset', ['-p', String(process.pid)], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/**
 * Starts `entry` (default: the sample's main) with `env` added on a free port, pinned to core `serverCpu` and this
 * process moved to another when `taskset` and two cores allow; resolves once it logs `MCP server listening`, with
 * `{ child, port, exited, log(), pinned }` (`log()`: its last output, `pinned`: a sentence saying how it runs).
 */
export async function startSample({ entry = SAMPLE_MAIN, env = {}, serverCpu = 1 } = {}) {
  if (!existsSync(SAMPLE_MAIN)) throw new Error(`${SAMPLE_MAIN} is missing: run \`npm run build:sample\` first`);
  const port = await freePort();
  const pin = hasTaskset() && CORES > 1;
  const core = serverCpu % CORES;
  if (pin) execFileSync('taskset', ['-a', '-p', '-c', String(core === 0 ? 1 : 0), String(process.pid)], { stdio: 'ignore' }); // this script off the server's core
  const [command, args] = pin ? ['taskset', ['-c', String(core), process.execPath, entry]] : [process.execPath, [entry]];
  const child = spawn(command, args, {
    env: { ...process.env, ...env, PORT: String(port), HOST: '127.0.0.1', MCP_REQUEST_STATE_SECRET: randomBytes(48).toString('base64') },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let log = '';
  const keep = (chunk) => (log = (log + chunk).slice(-4000));
  const server = { child, port, exited: undefined, log: () => log.replace(/\u001b\[[0-9;]*m/g, '') };
  child.on('exit', (code, signal) => (server.exited = signal ?? code));
  child.stderr.on('data', keep);
  await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the sample did not start in 60 s:\n${log}`)), 60_000);
    child.stdout.on('data', (chunk) => {
      keep(chunk);
      if (log.includes('MCP server listening')) {
        clearTimeout(timer);
        resolve();
      }
    });
    child.on('exit', (code, signal) => reject(new Error(`the sample exited (${signal ?? code}) before listening:\n${log}`)));
  });
  child.stdout.resume();
  process.on('exit', () => child.kill());
  server.pinned = pin ? `server pinned to CPU ${core}, this script to the other (taskset)` : 'not pinned (no taskset, or one core)';
  return server;
}
