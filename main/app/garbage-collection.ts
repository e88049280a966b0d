import { forgetCollectedFolderRoots } from '../folders/index.js';
import type { PinsContext } from '../pins/context.js';
import { collectGarbage, type GcResult, type GcStore } from '../pins/gc.js';
import type { Blocks } from '../store/blocks.js';

/**
 * One garbage-collection cycle and the index cleanup that follows it: folder roots whose blocks the
 * cycle deleted are forgotten (with their members). Shared by the server and by `pinfold gc` when no
 * server runs.
 */
export async function garbageCollectionCycle(pins: PinsContext, gcStore: GcStore, blocks: Pick<Blocks, 'has'>, graceSeconds: number): Promise<GcResult> {
  // A sync folder's kept versions are roots too (their blocks stay until retention releases them).
  const result = await collectGarbage(pins, gcStore, graceSeconds, { heldRoots: (tx) => tx.sync.keptVersionRoots() });
  await forgetCollectedFolderRoots(pins.accounts.store, (cid) => blocks.has(cid));
  return result;
}
