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
 * alone (their pin holds their blocks). Each page is checked and deleted in one transaction, the
 * checks all made before the first deletion's await, so no other write lands between a root's check
 * and its deletion.
 */
export async function forgetCollectedFolderRoots(store: Store, isHeld: (cid: CID) => boolean): Promise<number> {
  let forgotten = 0;
  let after = '';
  for (;;) {
    const page = await store.folders.readyFolderRootCidsAfter(after, PAGE);
    if (page.length === 0) return forgotten;
    forgotten += await store.transaction(async (tx) => {
      const gone = page.filter((cid) => !isHeld(CID.parse(cid)));
      for (const cid of gone) await tx.folders.deleteFolderRoot(cid);
      return gone.length;
    });
    after = page[page.length - 1] as string;
    // Requests run between pages: a large index is not checked in one turn of the event loop.
    await new Promise((resolve) => setImmediate(resolve));
  }
}
