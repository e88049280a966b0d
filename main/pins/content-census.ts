import { walkDag } from '../content/walk/walk-dag.js';
import type { Blocks } from '../store/blocks.js';
import type { PinsContext } from './context.js';

/** Complete DAGs whose walk is known, kept this many at most (the oldest forgotten first). */
const MAX_KNOWN = 256;

/**
 * The pin census over the blockstore: a DAG's bytes, and what keeps it from being complete. A DAG some
 * other walk found complete (a fetch's last walk) is told to it, and its next census costs no walk as
 * long as no block has left the store since (garbage collection moves `removals`; nothing else removes).
 */
export function contentCensus(blocks: Pick<Blocks, 'findBlock' | 'blockSize' | 'removals'>): PinsContext['content'] {
  const known = new Map<string, { bytes: number; removals: number }>();
  return {
    async census(root, signal) {
      const key = root.toString();
      const complete = known.get(key);
      if (complete !== undefined) {
        known.delete(key);
        if (complete.removals === blocks.removals) return { bytes: complete.bytes, missing: 0 };
      }
      const summary = await walkDag(blocks, root, { signal });
      // A block whose links cannot be read hides what lies below it: the DAG cannot be known complete.
      return { bytes: summary.bytes, missing: summary.missing.length + summary.unreadable.length };
    },
    knownComplete(root, bytes) {
      if (known.size >= MAX_KNOWN) known.delete(known.keys().next().value as string);
      known.set(root.toString(), { bytes, removals: blocks.removals });
    },
  };
}
