/**
 * How a batch's imports share the machine: a few at a time (so small files overlap their open and
 * stat latency), and a gate that holds large files to fewer still (each holds a few MiB while it
 * hashes). No I/O of its own.
 */

/**
 * Runs `work` over `items`, at most `concurrency` at once, in order of start. The first failure
 * rejects at once and stops the others from starting more (the work is abandoned).
 */
export async function forEachPooled<T>(items: readonly T[], concurrency: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  let failed = false;
  const worker = async (): Promise<void> => {
    while (next < items.length && !failed) {
      const item = items[next++] as T;
      await work(item).catch((error: unknown) => {
        failed = true;
        throw error;
      });
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, items.length) }, worker));
}

/** At most `limit` holders at once; the others wait, first come first served. */
export class Gate {
  private holders = 0;
  private readonly waiters: (() => void)[] = [];

  constructor(private readonly limit: number) {}

  async enter(): Promise<void> {
    while (this.holders >= this.limit) await new Promise<void>((resolve) => this.waiters.push(resolve));
    this.holders++;
  }

  leave(): void {
    this.holders--;
    this.waiters.shift()?.();
  }

  get held(): number {
    return this.holders;
  }
}
