import { openBlockstore } from '../../../main/store/blockstore/blockstore.js';
import { rawBlock } from '../../helpers/raw-blocks.js';

/**
 * Run as a child process by the crash test: commits one block, then stages three more and dies with
 * SIGKILL after their bytes are fsynced but before they are indexed.
 */
const dir = process.argv[2] as string;
const store = await openBlockstore(dir);
const committed = rawBlock('committed before the crash');
await store.put(committed.cid, committed.bytes);
const batch = store.createBatch();
for (let i = 0; i < 3; i++) {
  const block = rawBlock(Buffer.alloc(1024 * 1024, i + 1));
  await batch.put(block.cid, block.bytes);
}
store.indexBatch = async () => {
  process.kill(process.pid, 'SIGKILL');
  return [];
};
await batch.commit();
