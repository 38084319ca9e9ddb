import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/** V8's `gc()`, a full collection at once (`--expose-gc` set at run time, so no test command needs the flag). */
export function exposedGc(): () => void {
  setFlagsFromString('--expose-gc');
  return runInNewContext('gc') as () => void;
}

/**
 * Full garbage collections, each once the job before it has ended (a WeakRef holds its target until the job that
 * made or read it ends): two, as a closed server's native handle lets go of its objects only after the first.
 */
export async function collectGarbage(): Promise<void> {
  const gc = exposedGc();
  for (let pass = 0; pass < 2; pass++) {
    await new Promise((resolve) => setImmediate(resolve));
    gc();
  }
}

/**
 * Collects garbage until `condition` holds, failing after `timeoutMs`: on a loaded machine a collectable value may
 * outlive a first collection (V8's background work on a function holds it until the main thread picks that up).
 */
export async function collectGarbageUntil(condition: () => boolean, what: string, timeoutMs = 3000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    await collectGarbage();
    if (condition()) return;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
