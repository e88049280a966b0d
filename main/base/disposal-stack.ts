/**
 * What a start opened, closed in reverse on the way out: the part of TC39's AsyncDisposableStack that
 * Pinfold uses (Node 20 has none at runtime), over the house's `close()` rather than Symbol.asyncDispose.
 * Whatever starts registers its closing at once, so a start that fails halfway and a stop that follows a
 * whole start are the same walk back down the stack, and nothing started is forgotten.
 *
 * Closing goes on past a closer that fails (one broken part must not keep the rest open, least of all the
 * data folder's lock, which is taken first and so let go last); the failures are reported together at
 * the end. Disposing twice closes once: the second call waits on the first.
 */

/** What a closer may return: nothing, or a promise the stack waits for before the next closer. */
export type Closing = void | PromiseLike<void>;

/** A part with the house's way of stopping (timers, servers, stores, runners). */
export interface Closable {
  close(): Closing;
}

/** Several closers failed; `errors` holds each, in the order they failed (the reverse of registration). */
export class DisposalError extends AggregateError {
  override readonly name = 'DisposalError';
}

export class DisposalStack {
  private readonly closers: (() => Closing)[] = [];
  private disposal: Promise<void> | null = null;

  /** True once disposeAsync was called: nothing more may be registered. */
  get disposed(): boolean {
    return this.disposal !== null;
  }

  /** Runs `closer` when the stack is disposed, before everything registered earlier. */
  defer(closer: () => Closing): void {
    if (this.disposal !== null) throw new Error('the disposal stack is already disposed: what was just started would never be closed');
    this.closers.push(closer);
  }

  /** Closes `resource` (its `close()`) when the stack is disposed; null and undefined are let through. */
  use<T extends Closable | null | undefined>(resource: T): T {
    if (resource !== null && resource !== undefined) this.defer(() => resource.close());
    return resource;
  }

  /** Closes `value` with `close(value)` when the stack is disposed: for parts whose stop is not a `close()`. */
  adopt<T>(value: T, close: (value: T) => Closing): T {
    this.defer(() => close(value));
    return value;
  }

  /**
   * Runs every closer, the last registered first, each awaited before the next; throws a DisposalError
   * (an AggregateError) of those that failed once all have run.
   */
  disposeAsync(): Promise<void> {
    this.disposal ??= this.closeAll();
    return this.disposal;
  }

  private async closeAll(): Promise<void> {
    const errors: unknown[] = [];
    for (let closer = this.closers.pop(); closer !== undefined; closer = this.closers.pop()) {
      try {
        await closer();
      } catch (error) {
        errors.push(error);
      }
    }
    if (errors.length > 0) throw new DisposalError(errors, `closing failed: ${errors.map(messageOf).join('; ')}`);
  }
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
