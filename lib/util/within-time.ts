/**
 * `pending`, or a rejection with `late()` once `ms` pass before it settles; the timer never holds the process open.
 * What `pending` settles with after that is left to whoever else holds it.
 */
export function withinTime<T>(pending: Promise<T>, ms: number, late: () => Error): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(late()), ms).unref();
    pending.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (fault: unknown) => {
        clearTimeout(timer);
        reject(fault);
      },
    );
  });
}
