/**
 * What ipfs-unixfs-importer itself makes of a set of files under one directory, with a profile's options
 * (shared/unixfs-profiles.ts) and its own fixed-size chunker: the reference the window's folder CARs are
 * held to (test/unit/renderer/folder-car.test.ts, test/e2e/files.test.ts).
 */
import { importFile, importer, type ImportCandidate } from 'ipfs-unixfs-importer';
import { fixedSize } from 'ipfs-unixfs-importer/chunker';
import { balanced } from 'ipfs-unixfs-importer/layout';
import type { CID } from 'multiformats/cid';
import type { UnixfsImportOptions } from '../../shared/unixfs-profiles.js';

/** A file (with bytes) or an empty directory (without), at a `/`-separated path. */
export interface ReferenceEntry {
  path: string;
  bytes?: Uint8Array;
}

export interface ReferenceDirectory {
  root: string;
  /** Every block the importer wrote, by CID string. */
  blocks: Map<string, Uint8Array>;
}

export async function referenceDirectory(entries: Iterable<ReferenceEntry>, layout: UnixfsImportOptions): Promise<ReferenceDirectory> {
  const blocks = new Map<string, Uint8Array>();
  const blockstore = {
    put(cid: CID, bytes: Uint8Array | Iterable<Uint8Array> | AsyncIterable<Uint8Array>): CID {
      if (!(bytes instanceof Uint8Array)) throw new Error('not bytes');
      blocks.set(cid.toString(), bytes);
      return cid;
    },
  };
  const candidates = function* (): Generator<ImportCandidate> {
    for (const entry of entries) yield entry.bytes === undefined ? { path: entry.path } : { path: entry.path, content: entry.bytes };
  };
  let root: string | undefined;
  for await (const result of importer(candidates(), blockstore, {
    cidVersion: layout.cidVersion,
    rawLeaves: layout.rawLeaves,
    leafType: layout.leafType,
    reduceSingleLeafToSelf: layout.reduceSingleLeafToSelf,
    shardSplitThresholdBytes: layout.shardSplitThresholdBytes,
    shardSplitStrategy: layout.shardSplitStrategy,
    chunker: fixedSize({ chunkSize: layout.chunkSize }),
    layout: balanced({ maxChildrenPerNode: layout.maxChildrenPerNode }),
    wrapWithDirectory: true,
  })) {
    if ((result.path ?? '') === '') root = result.cid.toString();
  }
  if (root === undefined) throw new Error('the importer made no root');
  return { root, blocks };
}

/** The CID ipfs-unixfs-importer gives one file's bytes with a profile's options (what POST /ipfs/ answers). */
export async function referenceFileCid(bytes: Uint8Array, layout: UnixfsImportOptions): Promise<string> {
  const blockstore = { put: (cid: CID) => cid };
  const result = await importFile({ content: bytes }, blockstore, {
    cidVersion: layout.cidVersion,
    rawLeaves: layout.rawLeaves,
    leafType: layout.leafType,
    reduceSingleLeafToSelf: layout.reduceSingleLeafToSelf,
    chunker: fixedSize({ chunkSize: layout.chunkSize }),
    layout: balanced({ maxChildrenPerNode: layout.maxChildrenPerNode }),
  });
  return result.cid.toString();
}
