import * as dagPb from '@ipld/dag-pb';
import { UnixFS } from 'ipfs-unixfs';
import { CID } from 'multiformats/cid';
import type { MultihashDigest } from 'multiformats/hashes/interface';
import * as raw from 'multiformats/codecs/raw';
import { create as createDigest } from 'multiformats/hashes/digest';
import { digestBytes, digestBytesAsync } from '../../base/hashes.js';
import type { ResolvedLayout } from './unixfs-options.js';

/** One node of a file DAG as its parent needs it. */
export interface FileNode {
  cid: CID;
  /** File bytes under this node (UnixFS blocksize). */
  fileBytes: number;
  /** Cumulative DAG bytes (the Tsize a parent link carries). */
  dagBytes: number;
  /** UnixFS metadata of dag-pb nodes (what ipfs-unixfs-importer's tree builder looks at); none for raw. */
  unixfs?: UnixFS;
}

/** A hashed leaf waiting for its turn to be written. */
export interface PreparedLeaf {
  node: FileNode;
  block: Uint8Array;
  /** The chunk buffer the block lives in, when it must be released after the write. */
  chunk?: Uint8Array;
}

/** Stores a block; `release` (when given) runs once the store no longer reads `bytes`. */
export type WriteBlock = (cid: CID, bytes: Uint8Array, release?: () => void) => Promise<unknown>;

/**
 * Builds the balanced layout of ipfs-unixfs-importer incrementally: leaves are grouped by
 * `maxChildrenPerNode`, each full group becomes a parent at the next level at once, so memory holds at
 * most one partial group a level. `finish` reproduces the importer's end rule: level 0 is always reduced
 * (except a lone first leaf under reduceSingleLeafToSelf), a higher level with a single node is the root.
 */
export class BalancedFileBuilder {
  private readonly levels: FileNode[][] = [[]];
  private readonly pushed: number[] = [0];
  private leafCount = 0;

  constructor(
    private readonly layout: ResolvedLayout,
    private readonly write: WriteBlock,
    /** Gives a chunk buffer back once nothing reads it (chunks may come from a recycled arena). */
    private readonly releaseChunk: (chunk: Uint8Array) => void = () => undefined,
  ) {}

  /**
   * Hashes a chunk into its leaf without writing it, so several chunks can hash at once (on the hash
   * workers); leaves must then be added with `addLeaf` in file order.
   */
  async prepareLeaf(chunk: Uint8Array): Promise<PreparedLeaf> {
    const { layout } = this;
    if (layout.rawLeaves) {
      const digest = await digestBytesAsync(layout.hashCode, chunk);
      const cid = CID.createV1(raw.code, createDigest(layout.hashCode, digest));
      return { node: { cid, fileBytes: chunk.byteLength, dagBytes: chunk.byteLength }, block: chunk, chunk };
    }
    const unixfs = new UnixFS({ type: layout.leafType, data: Uint8Array.from(chunk) });
    const block = dagPb.encode({ Data: unixfs.marshal(), Links: [] });
    this.releaseChunk(chunk);
    const cid = this.dagPbCid(block);
    return { node: { cid, fileBytes: chunk.byteLength, dagBytes: block.byteLength, unixfs }, block };
  }

  async addLeaf(leaf: PreparedLeaf): Promise<void> {
    const { chunk } = leaf;
    await this.write(leaf.node.cid, leaf.block, chunk === undefined ? undefined : () => this.releaseChunk(chunk));
    this.leafCount++;
    await this.pushAt(0, leaf.node, true);
  }

  async finish(): Promise<FileNode> {
    const { levels } = this;
    if (this.leafCount === 1 && this.layout.reduceSingleLeafToSelf && levels.length === 1) {
      return levels[0]?.[0] as FileNode;
    }
    for (let level = 0; ; level++) {
      const nodes = levels[level] ?? [];
      const higher = levels.length > level + 1;
      if (level > 0 && !higher && (this.pushed[level] ?? 0) === 1) return nodes[0] as FileNode;
      if (nodes.length > 0) {
        levels[level] = [];
        const parent = await this.writeParent(nodes);
        await this.pushAt(level + 1, parent, false);
      }
    }
  }

  private async pushAt(level: number, node: FileNode, cascade: boolean): Promise<void> {
    if (this.levels.length <= level) {
      this.levels.push([]);
      this.pushed.push(0);
    }
    const nodes = this.levels[level] as FileNode[];
    nodes.push(node);
    this.pushed[level] = (this.pushed[level] ?? 0) + 1;
    if (cascade && nodes.length === this.layout.maxChildrenPerNode) {
      this.levels[level] = [];
      const parent = await this.writeParent(nodes);
      await this.pushAt(level + 1, parent, true);
    }
  }

  private async writeParent(children: FileNode[]): Promise<FileNode> {
    const unixfs = new UnixFS({ type: 'file' });
    const links: dagPb.PBLink[] = [];
    let fileBytes = 0;
    let linkBytes = 0;
    for (const child of children) {
      // The importer drops children that hold no file bytes (only an empty file's single leaf can).
      if (child.fileBytes === 0) continue;
      unixfs.addBlockSize(BigInt(child.fileBytes));
      links.push({ Name: '', Tsize: child.dagBytes, Hash: child.cid });
      fileBytes += child.fileBytes;
      linkBytes += child.dagBytes;
    }
    const block = dagPb.encode(dagPb.prepare({ Data: unixfs.marshal(), Links: links }));
    const cid = this.dagPbCid(block);
    await this.write(cid, block);
    return { cid, fileBytes, dagBytes: block.byteLength + linkBytes, unixfs };
  }

  private dagPbCid(block: Uint8Array): CID {
    const digest = createDigest(this.layout.hashCode, digestBytes(this.layout.hashCode, block));
    return this.layout.cidVersion === 0 ? CID.createV0(digest as MultihashDigest<0x12>) : CID.createV1(dagPb.code, digest);
  }
}
