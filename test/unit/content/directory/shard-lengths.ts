import * as dagPb from '@ipld/dag-pb';
import type { CID } from 'multiformats/cid';
import type { MemoryBlockstore } from 'blockstore-core/memory';

/** Sum of the block lengths of a HAMT's shard nodes (links named by a bare 2-character slot). */
export async function readShardBlockLengths(blockstore: MemoryBlockstore, root: CID): Promise<number> {
  const chunks: Uint8Array[] = [];
  for await (const chunk of blockstore.get(root)) chunks.push(chunk);
  const bytes = Buffer.concat(chunks);
  let total = bytes.length;
  for (const link of dagPb.decode(bytes).Links) {
    if ((link.Name ?? '').length === 2) total += await readShardBlockLengths(blockstore, link.Hash);
  }
  return total;
}

/** Every entry of a fanout-256 HAMT as [name, cid, tsize], read independently of the code under test. */
export async function listHamtEntries(blockstore: MemoryBlockstore, root: CID): Promise<Array<[string, CID, number]>> {
  const chunks: Uint8Array[] = [];
  for await (const chunk of blockstore.get(root)) chunks.push(chunk);
  const entries: Array<[string, CID, number]> = [];
  for (const link of dagPb.decode(Buffer.concat(chunks)).Links) {
    const label = link.Name ?? '';
    if (label.length === 2) entries.push(...(await listHamtEntries(blockstore, link.Hash)));
    else entries.push([label.slice(2), link.Hash, link.Tsize ?? 0]);
  }
  return entries;
}
