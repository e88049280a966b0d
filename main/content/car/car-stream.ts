import * as dagCbor from '@ipld/dag-cbor';
import { CID } from 'multiformats/cid';
import { BadInputError } from '../../base/errors.js';
import { ByteReader } from './byte-reader.js';

export interface CarBlock {
  cid: CID;
  bytes: Uint8Array;
}

export interface CarStream {
  version: 1 | 2;
  roots: CID[];
  /** Sections in file order; throws BadInputError on a truncated or malformed CAR. */
  blocks: AsyncGenerator<CarBlock>;
  /** CAR bytes read so far. */
  readonly position: number;
}

/** go-car refuses headers and sections above these sizes; so do we. */
const MAX_HEADER_BYTES = 32 * 1024 * 1024;
const CARV2_HEADER_BYTES = 40;
const CARV2_PRAGMA_BYTES = 11;

/**
 * Streaming CARv1/CARv2 reader: the header is read at once, blocks are read as `blocks` is iterated, one
 * section at a time (memory stays at one block). For CARv2 only the inner CARv1 payload is read; the
 * index after it is skipped. Nothing here verifies hashes: the importer does.
 */
export async function readCarStream(
  source: AsyncIterable<unknown> | Iterable<unknown>,
  options: { maxSectionBytes: number; allocate?: (length: number) => Uint8Array },
): Promise<CarStream> {
  const reader = new ByteReader(source, options.allocate);
  const first = await readHeader(reader);
  if (first.version === 1) {
    return {
      version: 1,
      roots: first.roots,
      blocks: sections(reader, Number.POSITIVE_INFINITY, options.maxSectionBytes),
      get position() {
        return reader.position;
      },
    };
  }
  if (reader.position !== CARV2_PRAGMA_BYTES) throw new BadInputError('car: malformed CARv2 pragma');
  const header = await reader.read(CARV2_HEADER_BYTES);
  if (header === undefined) throw new BadInputError('car: truncated CARv2 header');
  const view = new DataView(header.buffer, header.byteOffset, header.byteLength);
  const dataOffset = Number(view.getBigUint64(16, true));
  const dataSize = Number(view.getBigUint64(24, true));
  if (!Number.isSafeInteger(dataOffset) || dataOffset < CARV2_PRAGMA_BYTES + CARV2_HEADER_BYTES || !Number.isSafeInteger(dataSize)) {
    throw new BadInputError('car: CARv2 header has an invalid data offset or size');
  }
  if (!(await reader.skip(dataOffset - reader.position))) throw new BadInputError('car: truncated before the CARv2 payload');
  const inner = await readHeader(reader);
  if (inner.version !== 1) throw new BadInputError('car: CARv2 payload must be a CARv1');
  const end = dataOffset + dataSize;
  if (reader.position > end) throw new BadInputError('car: CARv2 payload is shorter than its header');
  return {
    version: 2,
    roots: inner.roots,
    blocks: sections(reader, end, options.maxSectionBytes, true),
    get position() {
      return reader.position;
    },
  };
}

async function readHeader(reader: ByteReader): Promise<{ version: number; roots: CID[] }> {
  const length = await readLength(reader, 'header');
  if (length === undefined) throw new BadInputError('car: empty input');
  if (length === 0 || length > MAX_HEADER_BYTES) throw new BadInputError(`car: header length ${length} is invalid`);
  const bytes = await reader.read(length);
  if (bytes === undefined) throw new BadInputError('car: truncated header');
  let header: unknown;
  try {
    header = dagCbor.decode(bytes);
  } catch {
    throw new BadInputError('car: header is not valid dag-cbor');
  }
  if (typeof header !== 'object' || header === null) throw new BadInputError('car: header is not a map');
  const { version, roots } = header as { version?: unknown; roots?: unknown };
  if (version === 2) return { version: 2, roots: [] };
  if (version !== 1) throw new BadInputError(`car: unsupported version ${String(version)}`);
  if (!Array.isArray(roots)) throw new BadInputError('car: header roots must be a list');
  const cids = roots.map((root) => {
    const cid = CID.asCID(root);
    if (cid === null) throw new BadInputError('car: header roots must be CIDs');
    return cid;
  });
  return { version: 1, roots: cids };
}

async function* sections(reader: ByteReader, end: number, maxSectionBytes: number, drainAfter = false): AsyncGenerator<CarBlock> {
  while (reader.position < end) {
    const length = await readLength(reader, 'section');
    if (length === undefined) {
      if (end === Number.POSITIVE_INFINITY) return;
      throw new BadInputError('car: truncated CARv2 payload');
    }
    if (length === 0) throw new BadInputError('car: zero-length section');
    if (length > maxSectionBytes) throw new BadInputError(`car: section of ${length} bytes is over the ${maxSectionBytes}-byte limit`);
    if (reader.position + length > end) throw new BadInputError('car: section runs past the CARv2 payload');
    const section = await reader.read(length);
    if (section === undefined) throw new BadInputError('car: truncated block section');
    let cid: CID;
    let rest: Uint8Array;
    try {
      [cid, rest] = CID.decodeFirst(section);
    } catch {
      throw new BadInputError(`car: section at byte ${reader.position - length} has an invalid CID`);
    }
    yield { cid, bytes: rest };
  }
  if (drainAfter) await reader.drain();
}

async function readLength(reader: ByteReader, what: string): Promise<number | undefined> {
  try {
    return await reader.readVarint();
  } catch (error) {
    // Only the varint's own faults are the CAR's; a failing source (a body over its declared size, a
    // client that went away) keeps its error.
    if (error instanceof RangeError) throw new BadInputError(`car: truncated or invalid ${what} length`);
    throw error;
  }
}
