/**
 * `Promise.withResolvers` (ES2024) for Node 20: Pinfold runs on Node >= 20.19 (package.json `engines`), and
 * @helia/delegated-routing-v1-http-api-client (with @libp2p/utils) calls it on every request, which on
 * Node 20 throws "Promise.withResolvers is not a function". Installed only where missing, with the
 * standard's behaviour, so Node 22 and Electron keep their own. Imported for its effect by
 * routing-client.ts; drop it once `engines` says Node 22.
 */
interface Resolvers<T> {
  promise: Promise<T>;
  resolve: (value: T | PromiseLike<T>) => void;
  reject: (reason?: unknown) => void;
}

const promiseConstructor = Promise as PromiseConstructor & { withResolvers?: <T>() => Resolvers<T> };

if (typeof promiseConstructor.withResolvers !== 'function') {
  Object.defineProperty(Promise, 'withResolvers', {
    configurable: true,
    writable: true,
    enumerable: false,
    value: function withResolvers<T>(): Resolvers<T> {
      let resolve!: Resolvers<T>['resolve'];
      let reject!: Resolvers<T>['reject'];
      const promise = new Promise<T>((yes, no) => {
        resolve = yes;
        reject = no;
      });
      return { promise, resolve, reject };
    },
  });
}

export {};
