/**
 * Polls `probe` until it answers something other than `undefined`, and answers that. A probe that throws is
 * asked again (a service restarting, a file half-written); at the deadline the error names `what` and the
 * probe's last error, so a probe can throw what it saw to have it reported. Between two asks it lets pending
 * I/O run, then waits `everyMs` (0: asks again at once, for a state that lasts only a moment).
 */
export async function until<T>(what: string, probe: () => Promise<T | undefined> | T | undefined, ms = 30_000, everyMs = 20): Promise<T> {
  const deadline = Date.now() + ms;
  let last: Error | undefined;
  for (;;) {
    try {
      const value = await probe();
      if (value !== undefined) return value;
    } catch (error) {
      last = error instanceof Error ? error : new Error(String(error));
    }
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}${last ? `: ${last.message}` : ''}`, { cause: last });
    await new Promise<void>((resolve) => setImmediate(resolve));
    if (everyMs > 0) await new Promise<void>((resolve) => setTimeout(resolve, everyMs));
  }
}
