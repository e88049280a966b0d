import { walkDag } from '../content/walk/walk-dag.js';
import type { Blocks } from '../store/blocks.js';
import type { PinsContext } from './context.js';

/** The pin census over the blockstore: a DAG's bytes, and what keeps it from being complete. */
export function contentCensus(blocks: Pick<Blocks, 'findBlock' | 'blockSize'>): PinsContext['content'] {
  return {
    async census(root, signal) {
      const summary = await walkDag(blocks, root, { signal });
      // A block whose links cannot be read hides what lies below it: the DAG cannot be known complete.
      return { bytes: summary.bytes, missing: summary.missing.length + summary.unreadable.length };
    },
  };
}
