import { CID } from 'multiformats/cid';
import type { Store } from '../store/repositories/index.js';

const PAGE = 1000;

/**
 * Forgets the folder roots whose root block garbage collection deleted, with their members
 * (`folder_members` cascades). Every operation records its new root and the caller as a member, so
 * without this the two tables grow by a row per operation for ever. A root whose block is gone can
 * no longer be operated on anyway (its directory cannot be read), and it answers 404 either way; a
 * root still held, pinned or not, keeps its rows, so what can be operated on is unchanged. A root
 * uploaded again later is imported again like any pinned directory. Roots still importing are left
 * alone (their pin holds their blocks). Each page's roots are checked against the block index first
 * (that answer is a promise, and a transaction's work never waits on one), then the ones not held are
 * deleted in one transaction. A root block stored again in between ends as if it had been stored just
 * after the deletion: its rows are gone, and it is imported again like any root uploaded later.
 */
export async function forgetCollectedFolderRoots(store: Store, isHeld: (cid: CID) => Promise<boolean>): Promise<number> {
  let forgotten = 0;
  let after = '';
  for (;;) {
    const page = await store.folders.readyFolderRootCidsAfter(after, PAGE);
    if (page.length === 0) return forgotten;
    const held = await Promise.all(page.map(async (cid) => isHeld(CID.parse(cid))));
    const gone = page.filter((_, i) => held[i] !== true);
    await store.transaction(async (tx) => {
      for (const cid of gone) await tx.folders.deleteFolderRoot(cid);
    });
    forgotten += gone.length;
    after = page[page.length - 1] as string;
    // Requests run between pages: a large index is not checked in one turn of the event loop.
    await new Promise((resolve) => setImmediate(resolve));
  }
}
