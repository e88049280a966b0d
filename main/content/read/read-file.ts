import { BadInputError } from '../../base/errors.js';
import type { BlockReadOptions, ReadBlockstore } from './blocks.js';
import { walkFileBlocks } from './file-blocks.js';
import type { NodeInfo } from './inspect-node.js';
import { readAhead } from './read-ahead.js';

export interface ReadRangeOptions extends BlockReadOptions {
  /** First byte to read (default 0). */
  offset?: number;
  /** How many bytes to read (default: to the end). */
  length?: number;
}

/**
 * Streams the bytes of a file, raw block or symlink target (`info` from `inspectNode`), optionally only
 * `length` bytes from `offset`. Only blocks that cover the range are read, one at a time.
 */
export async function* readFileContent(store: ReadBlockstore, info: NodeInfo, options: ReadRangeOptions = {}): AsyncGenerator<Uint8Array> {
  if (info.kind !== 'file' && info.kind !== 'symlink') {
    throw new BadInputError(`cid: ${info.cid.toString()} is a ${info.kind}, not a file`);
  }
  const offset = options.offset ?? 0;
  if (!Number.isSafeInteger(offset) || offset < 0) throw new BadInputError('offset: must be a non-negative integer');
  if (options.length !== undefined && (!Number.isSafeInteger(options.length) || options.length < 0)) {
    throw new BadInputError('length: must be a non-negative integer');
  }
  const end = Math.min(info.size, options.length === undefined ? info.size : offset + options.length);
  if (offset >= end) return;
  if (info.kind === 'symlink') {
    yield (info.unixfs?.data ?? new Uint8Array(0)).subarray(offset, end);
    return;
  }
  for await (const part of readAhead(walkFileBlocks(store, info.cid, info.block, { start: offset, end }, options))) {
    if (part.data.byteLength > 0) yield part.data;
  }
}
