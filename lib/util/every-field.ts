/**
 * Every key of `T`, optional ones included: a literal checked with `satisfies EveryField<T>` must name each one, so
 * a field added to `T` later cannot be left out of it.
 */
export type EveryField<T> = { [K in keyof Required<T>]: T[K] | undefined };
