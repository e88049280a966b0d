import type { CID } from 'multiformats/cid';
import { BalancedFileBuilder, type FileNode, type WriteBlock } from './balanced-builder.js';
import { openTarget, type ImportTarget } from './block-target.js';
import { fixedChunks, type ByteSource } from './fixed-chunks.js';
import { resolveLayout, type ResolvedLayout, type UnixfsLayoutOptions } from './unixfs-options.js';

export interface ImportProgress {
  /** File bytes read so far. */
  bytes: number;
}

export interface ImportFileOptions extends UnixfsLayoutOptions {
  signal?: AbortSignal;
  onProgress?: (progress: ImportProgress) => void;
}

export interface ImportFileResult {
  cid: CID;
  /** File bytes. */
  size: number;
  /** Bytes of every block of the file's DAG (the Tsize a directory link to it carries). */
  dagSize: number;
}

/**
 * Imports one file as a UnixFS DAG (contract profile unless `options` say otherwise), streaming: memory
 * holds one chunk and the open nodes of the tree. Into a PinfoldBlockstore the import is all-or-nothing
 * (a failed or aborted import leaves no block visible); into a BlockBatch the caller commits.
 */
export async function importFile(target: ImportTarget, source: ByteSource, options: ImportFileOptions = {}): Promise<ImportFileResult> {
  const layout = resolveLayout(options);
  const sink = openTarget(target, options.signal);
  try {
    const node = await buildFile(source, layout, sink.write, options);
    await sink.commit();
    return { cid: node.cid, size: node.fileBytes, dagSize: node.dagBytes };
  } catch (error) {
    sink.abort();
    throw error;
  }
}

/** Chunks, hashes and writes a file; returns its root node. Shared by file and directory imports. */
export async function buildFile(
  source: ByteSource,
  layout: ResolvedLayout,
  write: WriteBlock,
  options: { signal?: AbortSignal; onProgress?: (progress: ImportProgress) => void } = {},
): Promise<FileNode> {
  const builder = new BalancedFileBuilder(layout, write);
  let bytes = 0;
  for await (const chunk of fixedChunks(source, layout.chunkSize, options.signal)) {
    await builder.addChunk(chunk);
    bytes += chunk.byteLength;
    options.onProgress?.({ bytes });
  }
  options.signal?.throwIfAborted();
  return builder.finish();
}
