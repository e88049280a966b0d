import type { CID } from 'multiformats/cid';
import { builtinBlocks } from '../content/builtin-blocks.js';
import { walkDagBlocks } from '../content/walk/walk-dag.js';
import { multihashKey } from '../base/multihash-key.js';
import type { Blocks } from '../store/blocks.js';
import type { GcStore } from './gc.js';

/** GC met a block it cannot follow under a pin: a fault in the data, which the cycle reports and stops on. */
export class UnreadableDagError extends Error {
  override readonly name = 'UnreadableDagError';
  constructor(root: CID, block: CID, reason: string) {
    super(
      `garbage collection stopped before deleting anything: block ${block.toString()} under pin ${root.toString()} cannot be read under its codec (${reason})`,
    );
  }
}

/**
 * What GC sees of the blockstore: marks follow links of every codec; the built-in blocks (the empty
 * directory, always available) are stored first and never offered for deletion. Shared by the server and
 * by `pinfold gc` when no server runs.
 */
export async function contentGcStore(blocks: Blocks): Promise<GcStore> {
  const builtins = await builtinBlocks();
  for (const block of builtins) if (!(await blocks.has(block.cid))) await blocks.put(block.cid, block.bytes);
  const builtinKeys = new Set(builtins.map((block) => multihashKey(block.cid.multihash.bytes)));
  return {
    async mark(root, visit, signal) {
      for await (const event of walkDagBlocks(blocks, root, { signal })) {
        if (event.kind === 'block') visit(event.multihash);
        // What it links to is unknown: marking on as if it were a leaf would let the sweep delete blocks the
        // pin reaches. The cycle fails before its sweep instead, and deletes nothing.
        else if (event.kind === 'unreadable') throw new UnreadableDagError(root, event.cid, event.reason);
      }
    },
    async *storedBlocks() {
      for await (const block of blocks.listBlocks()) if (!builtinKeys.has(multihashKey(block.multihash))) yield block;
    },
    deleteMultihashes: (multihashes, createdBefore) => blocks.deleteMultihashes(multihashes, { createdBefore }),
    async compact(signal) {
      await blocks.compact({ signal });
    },
  };
}
