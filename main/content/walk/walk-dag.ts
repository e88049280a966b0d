import type { CID } from 'multiformats/cid';
import { multihashKey } from '../../base/multihash-key.js';
import type { Blocks } from '../../store/blocks.js';
import { blockLinks, canHaveLinks, reasonOf } from './block-links.js';
import { codecBit } from './codec-bit.js';

/** The narrow store view a walk needs: blocks it may not find, and sizes without reading. */
export type DagSource = Pick<Blocks, 'findBlock' | 'blockSize'>;

export type WalkEvent =
  | { kind: 'block'; cid: CID; multihash: Uint8Array; size: number }
  | { kind: 'missing'; cid: CID }
  /**
   * A stored block of a linking codec whose links cannot be read (it does not decode, or nests too deep):
   * what it links to is unknown, so each caller decides what that means for it; never a leaf.
   */
  | { kind: 'unreadable'; cid: CID; reason: string };

export interface WalkOptions {
  signal?: AbortSignal;
}

export interface WalkSummary {
  /** Unique stored blocks reached (by multihash). */
  blocks: number;
  /** Their bytes. */
  bytes: number;
  /** Blocks reached by a link but not stored (unique). */
  missing: CID[];
  /** Stored blocks whose links cannot be read, so what lies below them is unknown. */
  unreadable: CID[];
}

const IDENTITY = 0x00;

/**
 * Every block reachable from the roots, each unique multihash once, following links of dag-pb, dag-cbor
 * and dag-json (raw and other codecs are leaves: only their size is looked up, never their bytes).
 * Depth-first with an explicit stack: memory is the visited set plus the pending links. Identity CIDs
 * need no block; their inline bytes are still searched for links. A block of a linking codec whose links
 * cannot be read is reported as `unreadable` (after its `block` event), never taken for a leaf.
 */
export async function* walkDagBlocks(source: DagSource, roots: CID | CID[], options: WalkOptions = {}): AsyncGenerator<WalkEvent> {
  // Per multihash, the codecs already expanded: one stored block may be linked as raw and as dag-pb.
  const visited = new Map<string, number>();
  const stack: CID[] = (Array.isArray(roots) ? [...roots] : [roots]).reverse();
  while (stack.length > 0) {
    options.signal?.throwIfAborted();
    const cid = stack.pop() as CID;
    const key = multihashKey(cid.multihash.bytes);
    const seen = visited.get(key);
    const bit = codecBit(cid.code);
    if (seen !== undefined && (seen & bit) !== 0) continue;
    visited.set(key, (seen ?? 0) | bit);
    const identity = cid.multihash.code === IDENTITY;
    let bytes: Uint8Array | undefined;
    if (identity) {
      bytes = cid.multihash.digest;
    } else if (canHaveLinks(cid.code)) {
      bytes = await source.findBlock(cid, options);
      if (bytes === undefined) {
        if (seen === undefined) yield { kind: 'missing', cid };
        continue;
      }
      if (seen === undefined) yield { kind: 'block', cid, multihash: cid.multihash.bytes, size: bytes.byteLength };
    } else {
      if (seen !== undefined) continue;
      const size = await source.blockSize(cid);
      yield size === undefined ? { kind: 'missing', cid } : { kind: 'block', cid, multihash: cid.multihash.bytes, size };
      continue;
    }
    if (!canHaveLinks(cid.code)) continue;
    let links: CID[];
    try {
      links = blockLinks(cid, bytes);
    } catch (error) {
      yield { kind: 'unreadable', cid, reason: reasonOf(error) };
      continue;
    }
    for (let i = links.length - 1; i >= 0; i--) stack.push(links[i] as CID);
  }
}

/** Counts the unique blocks and bytes of a DAG and lists the blocks it lacks and those it cannot follow. */
export async function walkDag(source: DagSource, root: CID | CID[], options: WalkOptions = {}): Promise<WalkSummary> {
  let blocks = 0;
  let bytes = 0;
  const missing: CID[] = [];
  const unreadable: CID[] = [];
  for await (const event of walkDagBlocks(source, root, options)) {
    if (event.kind === 'missing') {
      missing.push(event.cid);
    } else if (event.kind === 'unreadable') {
      unreadable.push(event.cid);
    } else {
      blocks++;
      bytes += event.size;
    }
  }
  return { blocks, bytes, missing, unreadable };
}
