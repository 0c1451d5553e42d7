/**
 * Promises a test settles from inside a handler or a stream, so it can wait for the moment a tool
 * starts, returns or sees its cancel (Node 20 has no `Promise.withResolvers`).
 */

export interface Deferred<T> {
  readonly promise: Promise<T>;
  readonly resolve: (value: T) => void;
}

/** A promise and the function that resolves it. */
export function deferred<T = void>(): Deferred<T> {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((done) => {
    resolve = done;
  });
  return { promise, resolve };
}

/** Resolves once `signal` aborts (never, when it has aborted already). */
export function abortOf(signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => signal.addEventListener('abort', () => resolve()));
}
