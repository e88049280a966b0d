/** A promise and the functions that settle it, for a step a test holds open until it lets go. */
export interface Deferred<T> {
  promise: Promise<T>;
  resolve: (value: T) => void;
  reject: (reason: unknown) => void;
}

/**
 * `Promise.withResolvers()`, which Node 20 (a supported runtime, see package.json's engines) does not have
 * yet: the promise is settled only by the returned `resolve` and `reject`.
 */
export function deferred<T = void>(): Deferred<T> {
  let resolve!: (value: T) => void;
  let reject!: (reason: unknown) => void;
  const promise = new Promise<T>((settle, fail) => {
    resolve = settle;
    reject = fail;
  });
  return { promise, resolve, reject };
}
