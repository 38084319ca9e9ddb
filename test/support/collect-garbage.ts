import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/**
 * Full garbage collections, each once the job before it has ended (a WeakRef holds its target until the job that
 * made or read it ends): two, as a closed server's native handle lets go of its objects only after the first.
 * `--expose-gc` is set at run time, so no test command needs the flag.
 */
export async function collectGarbage(): Promise<void> {
  setFlagsFromString('--expose-gc');
  const gc = runInNewContext('gc') as () => void;
  for (let pass = 0; pass < 2; pass++) {
    await new Promise((resolve) => setImmediate(resolve));
    gc();
  }
}
