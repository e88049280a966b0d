/**
 * A dropped or picked folder as one CAR: the UnixFS DAG of its files under one directory root, laid out
 * with the service's CID profile (shared/unixfs-profiles.ts), so the root is the CID the service would
 * compute for the same files. Runs in a Web Worker (folder-car.worker.ts) but needs nothing of the DOM:
 * Blob is all it reads and all it makes, so it runs under Node in the unit tests too.
 *
 * Nothing big is held in memory. A leaf block is the file's bytes (raw leaves) or those bytes between a
 * few bytes of protobuf (dag-pb leaves), so the CAR keeps a slice of the file itself in its place: the
 * bytes are read once to hash them, and read again by the browser only as the upload sends them. The
 * CAR is a Blob made of those slices and of the small blocks (file and directory nodes), which is what
 * lets a folder of any size go as one request with upload progress (Chrome cannot stream a fetch body
 * over HTTP/1.1, and XMLHttpRequest sends a Blob without loading it).
 */
import * as dagCbor from '@ipld/dag-cbor';
import * as dagPb from '@ipld/dag-pb';
import { UnixFS } from 'ipfs-unixfs';
import { importer, type BufferImporter, type ImportCandidate, type ImporterOptions } from 'ipfs-unixfs-importer';
import { balanced } from 'ipfs-unixfs-importer/layout';
import { varint } from 'multiformats';
import { CID } from 'multiformats/cid';
import * as raw from 'multiformats/codecs/raw';
import { sha256 } from 'multiformats/hashes/sha2';
import type { UnixfsImportOptions } from '../../../shared/unixfs-profiles.js';

/** One entry of the folder, at a `/`-separated path inside it: a file, or an empty directory (no `file`). */
export interface FolderEntry {
  path: string;
  file?: Blob;
}

export interface FolderCarProgress {
  /** Files whose every byte has been read and hashed. */
  filesDone: number;
  bytesDone: number;
  /** The path of the file read last. */
  currentPath: string;
}

export interface FolderCar {
  /** The folder's directory CID (the CAR's one root). */
  root: string;
  /** The CARv1: header, then every block once. */
  car: Blob;
  blocks: number;
}

export interface FolderCarOptions {
  signal?: AbortSignal;
  onProgress?: (progress: FolderCarProgress) => void;
  /** Files read at once (default 8), each with at most 4 chunks in hand: 8 × 4 chunks of memory at most. */
  fileConcurrency?: number;
}

/** Where a chunk came from: `blob` bytes `start`..`end`. */
interface ChunkSource {
  blob: Blob;
  start: number;
  end: number;
}

/** One block of the CAR: its bytes, or the file slice that is its bytes, between small prefix and suffix. */
interface BlockParts {
  cid: CID;
  parts: CarPart[];
  length: number;
}

const CHUNKS_IN_HAND = 4;

/**
 * A piece of the CAR: bytes, or a slice of a file. (Not the DOM's BlobPart: this file also runs, and is
 * type-checked, under Node, whose Blob takes the same two.)
 */
type CarPart = Blob | Uint8Array<ArrayBuffer>;

/** Bytes as a CAR part: the codecs type theirs over any buffer, but none of them is ever a SharedArrayBuffer. */
const part = (bytes: Uint8Array): CarPart => bytes as Uint8Array<ArrayBuffer>;

export class FolderReadError extends Error {
  override readonly name = 'FolderReadError';
}

export async function buildFolderCar(entries: readonly FolderEntry[], layout: UnixfsImportOptions, options: FolderCarOptions = {}): Promise<FolderCar> {
  const blocks = new Map<string, BlockParts>();
  const sources = new WeakMap<Uint8Array, ChunkSource>();
  const progress: FolderCarProgress = { filesDone: 0, bytesDone: 0, currentPath: '' };

  const keep = (cid: CID, parts: CarPart[], length: number): void => {
    const key = cid.toString();
    // The same file twice, or the same directory: one block in the CAR.
    if (!blocks.has(key)) blocks.set(key, { cid, parts, length });
  };
  const blockstore = {
    put(cid: CID, bytes: Uint8Array | Iterable<Uint8Array> | AsyncIterable<Uint8Array>): CID {
      if (!(bytes instanceof Uint8Array)) throw new Error('the importer wrote a block that is not bytes');
      keep(cid, [part(bytes)], bytes.byteLength);
      return cid;
    },
  };

  // Leaves as the importer's own buffer importer makes them, kept as slices of the file they came from.
  const leafCidVersion = layout.rawLeaves ? 1 : layout.cidVersion;
  const bufferImporter: BufferImporter = async function* leaves(file) {
    for await (const chunk of file.content) {
      yield async () => {
        let block = chunk;
        let unixfs: UnixFS | undefined;
        if (!layout.rawLeaves) {
          unixfs = new UnixFS({ type: layout.leafType, data: chunk });
          block = dagPb.encode({ Data: unixfs.marshal(), Links: [] });
        }
        const cid = CID.create(leafCidVersion, layout.rawLeaves ? raw.code : dagPb.code, await sha256.digest(block));
        keep(cid, ...leafParts(block, chunk, sources.get(chunk)));
        return { cid, unixfs, size: BigInt(block.byteLength), block };
      };
    }
  };

  const fileConcurrency = options.fileConcurrency ?? 8;
  const importerOptions: ImporterOptions = {
    cidVersion: layout.cidVersion,
    rawLeaves: layout.rawLeaves,
    leafType: layout.leafType,
    reduceSingleLeafToSelf: layout.reduceSingleLeafToSelf,
    shardSplitThresholdBytes: layout.shardSplitThresholdBytes,
    shardSplitStrategy: layout.shardSplitStrategy,
    layout: balanced({ maxChildrenPerNode: layout.maxChildrenPerNode }),
    wrapWithDirectory: true,
    fileImportConcurrency: fileConcurrency,
    blockWriteConcurrency: CHUNKS_IN_HAND,
    // The content arrives already cut into chunks of the profile's size (readChunks).
    chunker: (source) => source,
    bufferImporter,
  };

  const candidates = function* (): Generator<ImportCandidate> {
    for (const entry of entries) {
      options.signal?.throwIfAborted();
      const { file } = entry;
      if (file === undefined) {
        yield { path: entry.path };
        continue;
      }
      const read = readChunks(file, layout.chunkSize, entry.path, (chunk, source) => {
        sources.set(chunk, source);
        progress.bytesDone += chunk.byteLength;
        progress.currentPath = entry.path;
        options.onProgress?.({ ...progress });
      });
      yield {
        path: entry.path,
        content: (async function* () {
          yield* read;
          progress.filesDone += 1;
          options.onProgress?.({ ...progress });
        })(),
      };
    }
  };

  let root: CID | undefined;
  for await (const entry of importer(candidates(), blockstore, importerOptions)) {
    options.signal?.throwIfAborted();
    if ((entry.path ?? '') === '') root = entry.cid;
  }
  // A folder with nothing in it is the empty directory.
  root ??= await emptyDirectory(layout.cidVersion, keep);
  options.signal?.throwIfAborted();
  return { root: root.toString(), car: carBlob(root, blocks.values()), blocks: blocks.size };
}

/**
 * Reads `file` in chunks of `chunkSize` (the last may be shorter; an empty file is one empty chunk, as
 * the importer's fixed-size chunker and the service's make it).
 */
async function* readChunks(file: Blob, chunkSize: number, path: string, onChunk: (chunk: Uint8Array, source: ChunkSource) => void): AsyncGenerator<Uint8Array> {
  if (file.size === 0) {
    yield new Uint8Array(0);
    return;
  }
  for (let start = 0; start < file.size; start += chunkSize) {
    const end = Math.min(start + chunkSize, file.size);
    let chunk: Uint8Array;
    try {
      chunk = new Uint8Array(await file.slice(start, end).arrayBuffer());
    } catch (error) {
      throw new FolderReadError(`${path} could not be read (${error instanceof Error ? error.message : String(error)}): was it moved or changed?`);
    }
    if (chunk.byteLength !== end - start) throw new FolderReadError(`${path} changed while it was read`);
    onChunk(chunk, { blob: file, start, end });
    yield chunk;
  }
}

/**
 * A leaf block as CAR parts: where the chunk's bytes sit inside the block, the file slice they came from
 * takes their place, so the CAR holds no copy of them. A leaf whose chunk cannot be found in it (no
 * known source) is kept as it is.
 */
function leafParts(block: Uint8Array, chunk: Uint8Array, source: ChunkSource | undefined): [CarPart[], number] {
  if (source === undefined || chunk.byteLength === 0) return [[part(block)], block.byteLength];
  const slice = source.blob.slice(source.start, source.end);
  if (block === chunk) return [[slice], block.byteLength];
  // A dag-pb leaf: a few bytes of protobuf, the chunk, then its size field.
  for (let offset = 0; offset + chunk.byteLength <= block.byteLength; offset++) {
    if (sameBytes(block, offset, chunk)) {
      return [[part(block.slice(0, offset)), slice, part(block.slice(offset + chunk.byteLength))], block.byteLength];
    }
  }
  return [[part(block)], block.byteLength];
}

function sameBytes(block: Uint8Array, offset: number, chunk: Uint8Array): boolean {
  if (block[offset] !== chunk[0] || block[offset + chunk.byteLength - 1] !== chunk[chunk.byteLength - 1]) return false;
  for (let i = 0; i < chunk.byteLength; i++) if (block[offset + i] !== chunk[i]) return false;
  return true;
}

async function emptyDirectory(cidVersion: 0 | 1, keep: (cid: CID, parts: CarPart[], length: number) => void): Promise<CID> {
  const bytes = dagPb.encode(dagPb.prepare({ Data: new UnixFS({ type: 'directory' }).marshal() }));
  const digest = await sha256.digest(bytes);
  const cid = cidVersion === 0 ? CID.createV0(digest) : CID.createV1(dagPb.code, digest);
  keep(cid, [part(bytes)], bytes.byteLength);
  return cid;
}

function varintBytes(value: number): Uint8Array {
  const bytes = new Uint8Array(varint.encodingLength(value));
  varint.encodeTo(value, bytes);
  return bytes;
}

/** CARv1 (https://ipld.io/specs/transport/car/carv1/): a dag-cbor header with the root, then `varint | CID | block` sections. */
function carBlob(root: CID, blocks: Iterable<BlockParts>): Blob {
  const header = dagCbor.encode({ roots: [root], version: 1 });
  const parts: CarPart[] = [part(varintBytes(header.byteLength)), part(header)];
  for (const block of blocks) {
    parts.push(part(varintBytes(block.cid.bytes.byteLength + block.length)), part(block.cid.bytes), ...block.parts);
  }
  return new Blob(parts, { type: 'application/vnd.ipld.car' });
}
