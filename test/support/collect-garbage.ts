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
