/**
 * Returns the promise with its rejection marked handled, so an input request awaited later (or never) cannot end
 * the process as an unhandled rejection; whoever awaits it still sees the rejection.
 */
export function quiet<T>(promise: Promise<T>): Promise<T> {
  promise.catch(() => undefined);
  return promise;
}

/** Resolves once `promise` settles, whatever its outcome (which it leaves to whoever else awaits it). */
export function whenSettled(promise: Promise<unknown>): Promise<void> {
  return promise.then(ignore, ignore);
}

const ignore = (): void => undefined;

/** A promise rejected with `reason`, {@link quiet}ly. */
export function rejected<T = never>(reason: unknown): Promise<T> {
  return quiet(Promise.reject(reason) as Promise<T>);
}
