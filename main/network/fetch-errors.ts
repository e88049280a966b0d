/**
 * A DAG that no source can complete for Pinfold, whatever it waits for: one of its blocks cannot be read
 * under its codec (every write path refuses such a block), or is addressed by a hash Pinfold cannot verify.
 * The fetch stops at once instead of asking until the pin times out.
 */
export class UnfetchableDagError extends Error {
  override readonly name = 'UnfetchableDagError';
}
