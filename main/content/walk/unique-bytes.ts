import * as dagPb from '@ipld/dag-pb';
import type { CID } from 'multiformats/cid';
import * as raw from 'multiformats/codecs/raw';
import { multihashKey } from '../../base/multihash-key.js';
import { getBlock, type ReadBlockstore, type ReadOptions } from '../read/blocks.js';

/**
 * The bytes of the blocks under `older` that `newer` no longer has, found by walking the two DAGs side by
 * side and going down only where their CIDs differ: at each pair of differing dag-pb nodes, links are
 * matched by name (directory entries, HAMT slots) or, unnamed, by position (a file's chunks); a pair with
 * the same CID is skipped whole, a link on one side only is taken whole. Raw leaves are sized from their
 * parent's link (Tsize) and never read, so the cost grows with the change (its directory and file nodes),
 * not with the size of the trees. Blocks of any other codec are counted as leaves.
 *
 * What it cannot see: a block of `older`'s changed part that `newer` holds in a part that did not change
 * (the same file copied elsewhere) is counted, so the figure is an upper bound in that rare case.
 */
export async function uniqueBytes(store: ReadBlockstore, older: CID, newer: CID, options: ReadOptions = {}): Promise<number> {
  const olderBlocks = new Map<string, number>();
  const newerBlocks = new Set<string>();
  await compare(store, { cid: older, size: undefined }, { cid: newer, size: undefined }, olderBlocks, newerBlocks, options);
  let bytes = 0;
  for (const [key, size] of olderBlocks) if (!newerBlocks.has(key)) bytes += size;
  return bytes;
}

interface Linked {
  cid: CID;
  /** The parent link's Tsize: a raw leaf's size. */
  size: number | undefined;
}

async function node(store: ReadBlockstore, cid: CID, options: ReadOptions): Promise<{ bytes: Uint8Array; links: dagPb.PBLink[] }> {
  const bytes = await getBlock(store, cid, options);
  return { bytes, links: cid.code === dagPb.code ? dagPb.decode(bytes).Links : [] };
}

async function compare(
  store: ReadBlockstore,
  a: Linked,
  b: Linked,
  olderBlocks: Map<string, number>,
  newerBlocks: Set<string>,
  options: ReadOptions,
): Promise<void> {
  // By text, not `equals`: that is a type guard, and its false branch narrows the CIDs to never.
  if (a.cid.toString() === b.cid.toString()) return;
  if (a.cid.code !== dagPb.code || b.cid.code !== dagPb.code) {
    await collect(store, a, (key, size) => olderBlocks.set(key, size), options);
    await collect(store, b, (key) => newerBlocks.add(key), options);
    return;
  }
  options.signal?.throwIfAborted();
  const [left, right] = await Promise.all([node(store, a.cid, options), node(store, b.cid, options)]);
  olderBlocks.set(multihashKey(a.cid.multihash.bytes), left.bytes.byteLength);
  newerBlocks.add(multihashKey(b.cid.multihash.bytes));
  const named = left.links.some((link) => link.Name);
  if (left.links.length > 0 && right.links.length > 0 && named !== right.links.some((link) => link.Name)) {
    // A directory where a file was, or the reverse: nothing lines up below.
    for (const link of left.links) await collect(store, { cid: link.Hash, size: link.Tsize }, (k, size) => olderBlocks.set(k, size), options);
    for (const link of right.links) await collect(store, { cid: link.Hash, size: link.Tsize }, (k) => newerBlocks.add(k), options);
    return;
  }
  const keyOf = (link: dagPb.PBLink, index: number): string => (named ? `n:${link.Name ?? ''}` : `i:${index}`);
  const rightByKey = new Map(right.links.map((link, index) => [keyOf(link, index), link]));
  const matched = new Set<string>();
  for (const [index, link] of left.links.entries()) {
    const key = keyOf(link, index);
    const other = rightByKey.get(key);
    const older = { cid: link.Hash, size: link.Tsize };
    if (other === undefined) await collect(store, older, (k, size) => olderBlocks.set(k, size), options);
    else {
      matched.add(key);
      await compare(store, older, { cid: other.Hash, size: other.Tsize }, olderBlocks, newerBlocks, options);
    }
  }
  for (const [key, link] of rightByKey) {
    if (!matched.has(key)) await collect(store, { cid: link.Hash, size: link.Tsize }, (k) => newerBlocks.add(k), options);
  }
}

/** Every block under `start`, reading dag-pb nodes only (a raw leaf's size is its link's Tsize). */
async function collect(store: ReadBlockstore, start: Linked, add: (key: string, size: number) => void, options: ReadOptions): Promise<void> {
  const pending: Linked[] = [start];
  const seen = new Set<string>();
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    const key = multihashKey(next.cid.multihash.bytes);
    if (seen.has(key)) continue;
    seen.add(key);
    if (next.cid.code === raw.code && next.size !== undefined) {
      add(key, next.size);
      continue;
    }
    options.signal?.throwIfAborted();
    const { bytes, links } = await node(store, next.cid, options);
    add(key, bytes.byteLength);
    for (const link of links) pending.push({ cid: link.Hash, size: link.Tsize });
  }
}
