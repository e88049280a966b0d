import { importer, type ImporterOptions, type ImportCandidate } from 'ipfs-unixfs-importer';
import { CID } from 'multiformats/cid';
import { BadInputError } from '../../base/errors.js';
import { EMPTY_DIRECTORY_BYTES, EMPTY_DIRECTORY_CID } from '../directory/blocks.js';
import { openTarget, type ImportTarget } from './block-target.js';
import type { ByteSource } from './fixed-chunks.js';
import { buildFile } from './import-file.js';
import { resolveLayout, type UnixfsLayoutOptions } from './unixfs-options.js';

/** A file (with content) or an empty directory (without) at a `/`-separated path. */
export interface TreeEntry {
  path: string;
  /** Read lazily, a few files at a time: prefer sources that open their file on first read. */
  content?: ByteSource;
}

export interface ImportTreeOptions extends UnixfsLayoutOptions {
  signal?: AbortSignal;
  onProgress?: (progress: { bytes: number }) => void;
  /** A directory whose estimated node size passes this becomes a HAMT shard. Default 262144. */
  shardSplitThresholdBytes?: number;
  /** How that size is estimated; 'links-bytes' (name + CID bytes a link) is Kubo's and the importer's default. */
  shardSplitStrategy?: 'links-bytes' | 'block-bytes';
}

export interface TreeEntryResult {
  /** Path inside the root ('' for the root itself). */
  path: string;
  cid: CID;
  /** Cumulative DAG bytes (the Tsize of a link to it). */
  dagSize: number;
}

export interface ImportTreeResult {
  cid: CID;
  dagSize: number;
  /** Every file and directory below the root, in the order the importer finished them. */
  entries: TreeEntryResult[];
}

type FileBuilder = NonNullable<ImporterOptions['fileBuilder']>;

/** Files this many at a time; each holds one chunk buffer and an open source. */
const FILE_CONCURRENCY = 8;

/**
 * Imports a set of files as one UnixFS directory (the entries wrapped in a root directory), with the same
 * CIDs as ipfs-unixfs-importer: its tree builder lays out directories and HAMT shards, while files go
 * through Pinfold's own streaming builder. All-or-nothing into a store that stages batches.
 */
export async function importDirectoryTree(
  target: ImportTarget,
  entries: Iterable<TreeEntry> | AsyncIterable<TreeEntry>,
  options: ImportTreeOptions = {},
): Promise<ImportTreeResult> {
  const layout = resolveLayout(options);
  if (layout.hashCode !== 0x12) throw new BadInputError('hashCode: directories are hashed with sha2-256 only');
  const sink = openTarget(target, options.signal);
  let bytes = 0;
  const fileBuilder: FileBuilder = async (file) => {
    const node = await buildFile(file.content, layout, sink, {
      signal: options.signal,
      onProgress: (progress) => {
        options.onProgress?.({ bytes: bytes + progress.bytes });
      },
    });
    bytes += node.fileBytes;
    return { cid: node.cid, size: BigInt(node.dagBytes), path: file.path, unixfs: node.unixfs, originalPath: file.originalPath };
  };
  const importerOptions: ImporterOptions = {
    cidVersion: layout.cidVersion,
    rawLeaves: layout.rawLeaves,
    leafType: layout.leafType,
    reduceSingleLeafToSelf: layout.reduceSingleLeafToSelf,
    shardSplitThresholdBytes: options.shardSplitThresholdBytes ?? 262_144,
    shardSplitStrategy: options.shardSplitStrategy ?? 'links-bytes',
    wrapWithDirectory: true,
    fileImportConcurrency: FILE_CONCURRENCY,
    // Pieces pass through untouched: buildFile does the fixed-size chunking itself.
    chunker: (source) => source,
    fileBuilder,
  };
  try {
    const results: TreeEntryResult[] = [];
    const directories = new Set<string>();
    let root: TreeEntryResult | undefined;
    for await (const entry of importer(candidates(entries, directories, options.signal), sink.storage, importerOptions)) {
      const result = { path: entry.path ?? '', cid: entry.cid, dagSize: Number(entry.size) };
      if (result.path === '') root = result;
      else results.push(result);
    }
    if (root === undefined) throw new Error('the importer produced no root directory');
    // The importer reports no entry for a directory given without children: it is the empty directory.
    for (const path of results.map((result) => result.path)) directories.delete(path);
    if (directories.size > 0) {
      const empty = emptyDirectory(layout.cidVersion);
      for (const path of directories) results.push({ path, cid: empty.cid, dagSize: empty.bytes.byteLength });
    }
    options.signal?.throwIfAborted();
    await sink.commit();
    return { cid: root.cid, dagSize: root.dagSize, entries: results };
  } catch (error) {
    sink.abort();
    throw error;
  }
}

function emptyDirectory(cidVersion: 0 | 1): { cid: CID; bytes: Uint8Array } {
  return { cid: cidVersion === 0 ? EMPTY_DIRECTORY_CID.toV0() : EMPTY_DIRECTORY_CID, bytes: EMPTY_DIRECTORY_BYTES };
}

async function* candidates(
  entries: Iterable<TreeEntry> | AsyncIterable<TreeEntry>,
  directories: Set<string>,
  signal: AbortSignal | undefined,
): AsyncGenerator<ImportCandidate> {
  for await (const entry of entries) {
    signal?.throwIfAborted();
    const segments = entry.path.split('/').filter((segment) => segment !== '' && segment !== '.');
    if (segments.length === 0 || segments.some((segment) => segment === '..' || segment.includes('\0'))) {
      throw new BadInputError(`path: "${entry.path}" is not a valid relative path`);
    }
    const path = segments.join('/');
    if (entry.content === undefined) directories.add(path);
    yield entry.content === undefined ? { path } : { path, content: entry.content };
  }
}
