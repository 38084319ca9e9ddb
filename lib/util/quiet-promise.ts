/**
 * A promise whose rejection never counts as unhandled while nobody awaits it yet: an input request a tool
 * makes and awaits later (or never) must not end the process through Node's unhandled-rejection rule. The
 * rejection still reaches whoever awaits the promise. Returns the same promise.
 */
export function quiet<T>(promise: Promise<T>): Promise<T> {
  promise.catch(() => undefined);
  return promise;
}

/** A promise rejected with `reason`, {@link quiet}ly. */
export function rejected<T = never>(reason: unknown): Promise<T> {
  return quiet(Promise.reject(reason) as Promise<T>);
}
