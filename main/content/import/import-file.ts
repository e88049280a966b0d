import type { CID } from 'multiformats/cid';
import { BalancedFileBuilder, type FileNode, type PreparedLeaf } from './balanced-builder.js';
import { openTarget, type ImportTarget, type OpenTarget } from './block-target.js';
import { fixedChunks, type ByteSource } from './fixed-chunks.js';
import { isChunkingSource, type ChunkingSource } from './readable-chunks.js';
import { resolveLayout, type ResolvedLayout, type UnixfsLayoutOptions } from './unixfs-options.js';

/** Chunks hashing at once: enough to keep every hash worker busy. */
const HASH_WINDOW = 6;

export interface ImportProgress {
  /** File bytes read so far. */
  bytes: number;
}

export interface ImportFileOptions extends UnixfsLayoutOptions {
  signal?: AbortSignal;
  /** The source never reuses a buffer it yielded: pieces may be stored without a copy (fixedChunks). */
  transfer?: boolean;
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
 * holds one chunk and the open nodes of the tree. Into a store that stages batches the import is all-or-nothing
 * (a failed or aborted import leaves no block visible); into a BlockBatch the caller commits.
 */
export async function importFile(target: ImportTarget, source: ByteSource | ChunkingSource, options: ImportFileOptions = {}): Promise<ImportFileResult> {
  const layout = resolveLayout(options);
  const sink = openTarget(target, options.signal);
  try {
    const node = await buildFile(source, layout, sink, options);
    await sink.commit();
    return { cid: node.cid, size: node.fileBytes, dagSize: node.dagBytes };
  } catch (error) {
    sink.abort();
    throw error;
  }
}

/** Chunks, hashes and writes a file; returns its root node. Shared by file and directory imports. */
export async function buildFile(
  source: ByteSource | ChunkingSource,
  layout: ResolvedLayout,
  sink: Pick<OpenTarget, 'write' | 'allocate' | 'release'>,
  options: { signal?: AbortSignal; transfer?: boolean; onProgress?: (progress: ImportProgress) => void } = {},
): Promise<FileNode> {
  const builder = new BalancedFileBuilder(layout, sink.write, sink.release);
  // Chunks hash concurrently (on the hash workers) while the next ones are read; leaves join the tree
  // in order. The window bounds memory to a few chunks.
  const window: Array<Promise<PreparedLeaf>> = [];
  let bytes = 0;
  try {
    const chunks = isChunkingSource(source)
      ? source.chunks(layout.chunkSize, sink, options.signal)
      : fixedChunks(source, layout.chunkSize, { signal: options.signal, allocate: sink.allocate, release: sink.release, transfer: options.transfer });
    for await (const chunk of chunks) {
      const leaf = builder.prepareLeaf(chunk);
      // Observed now so a failure while later chunks are read is not an unhandled rejection.
      leaf.catch(() => undefined);
      window.push(leaf);
      if (window.length >= HASH_WINDOW) await builder.addLeaf(await (window.shift() as Promise<PreparedLeaf>));
      bytes += chunk.byteLength;
      options.onProgress?.({ bytes });
    }
    while (window.length > 0) await builder.addLeaf(await (window.shift() as Promise<PreparedLeaf>));
  } finally {
    // After a failure, chunks hashed but never handed to the store go back to the arena.
    for (const leaf of window.splice(0)) {
      leaf.then(
        (prepared) => {
          if (prepared.chunk !== undefined) sink.release(prepared.chunk);
        },
        () => undefined,
      );
    }
  }
  options.signal?.throwIfAborted();
  return builder.finish();
}
