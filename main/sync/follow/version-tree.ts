import * as dagPb from '@ipld/dag-pb';
import { CID } from 'multiformats/cid';
import * as raw from 'multiformats/codecs/raw';
import { NotFoundError } from '../../base/errors.js';
import { EMPTY_DIRECTORY_CID, lookupEntry } from '../../content/directory/index.js';
import { inspectNode, listDirectory, type ReadBlockstore } from '../../content/read/index.js';

/**
 * One version of a followed folder, looked up path by path (the applier asks only for the paths a diff
 * names and their folders): folders are remembered, so the paths of one folder cost one walk down to it.
 */

export type TreeNodeKind = 'file' | 'dir' | 'other';

export interface TreeNode {
  kind: TreeNodeKind;
  cid: CID;
}

const EMPTY_DIRECTORY_MULTIHASH = EMPTY_DIRECTORY_CID.multihash.bytes;

function isEmptyDirectory(cid: CID): boolean {
  const bytes = cid.multihash.bytes;
  return bytes.length === EMPTY_DIRECTORY_MULTIHASH.length && bytes.every((byte, index) => byte === EMPTY_DIRECTORY_MULTIHASH[index]);
}

/** A version's entries by `/`-separated path. */
export interface VersionTree {
  readonly root: CID;
  /** The node at `path` ('' is the root), or undefined when the version has nothing there. */
  nodeAt(path: string): Promise<TreeNode | undefined>;
  /** The entries of the folder at `path`, by name (empty when it is not a folder of the version). */
  childrenOf(path: string): Promise<Map<string, TreeNode>>;
}

export function versionTree(blocks: ReadBlockstore, root: CID, signal?: AbortSignal): VersionTree {
  const folders = new Map<string, Promise<TreeNode | undefined>>();

  const kindOf = async (cid: CID): Promise<TreeNodeKind> => {
    if (isEmptyDirectory(cid)) return 'dir';
    if (cid.code !== dagPb.code) return cid.code === raw.code ? 'file' : 'other';
    const info = await inspectNode(blocks, cid, { signal });
    if (info.kind === 'file') return 'file';
    return info.kind === 'directory' || info.kind === 'hamt-directory' ? 'dir' : 'other';
  };

  const lookup = async (path: string): Promise<TreeNode | undefined> => {
    if (path === '') return { kind: 'dir', cid: root };
    const at = path.lastIndexOf('/');
    const parent = await nodeAt(at < 0 ? '' : path.slice(0, at));
    if (parent?.kind !== 'dir') return undefined;
    if (isEmptyDirectory(parent.cid)) return undefined;
    const entry = await lookupEntry(blocks, parent.cid, path.slice(at + 1), { signal });
    if (entry === undefined) return undefined;
    return { kind: await kindOf(entry.cid), cid: entry.cid };
  };

  const nodeAt = async (path: string): Promise<TreeNode | undefined> => {
    const known = folders.get(path);
    if (known !== undefined) return known;
    const found = lookup(path);
    // Only folders are kept: they are what the next lookups pass through.
    folders.set(path, found);
    const node = await found.catch((error: unknown) => {
      folders.delete(path);
      throw error;
    });
    if (node?.kind !== 'dir') folders.delete(path);
    return node;
  };

  return {
    root,
    nodeAt,
    async childrenOf(path) {
      const node = await nodeAt(path);
      const children = new Map<string, TreeNode>();
      if (node?.kind !== 'dir' || isEmptyDirectory(node.cid)) return children;
      const info = await inspectNode(blocks, node.cid, { signal });
      for await (const entry of listDirectory(blocks, info, { signal })) children.set(entry.name, { kind: await kindOf(entry.cid), cid: entry.cid });
      return children;
    },
  };
}

/** A version's tree when its blocks are held; undefined when they are not (a crashed apply's target, since collected). */
export async function heldVersionTree(blocks: ReadBlockstore, root: string, signal?: AbortSignal): Promise<VersionTree | undefined> {
  const cid = CID.parse(root);
  try {
    if (!isEmptyDirectory(cid)) await inspectNode(blocks, cid, { signal });
    return versionTree(blocks, cid, signal);
  } catch (error) {
    if (error instanceof NotFoundError) return undefined;
    throw error;
  }
}
