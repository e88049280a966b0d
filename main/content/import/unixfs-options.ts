import { BadInputError } from '../../base/errors.js';

/**
 * How a file becomes a UnixFS DAG. The defaults are Pinfold's contract profile (CIDv1, raw leaves,
 * sha2-256, 1 MiB fixed chunks, at most 1024 links a node, balanced, a one-chunk file is its raw leaf),
 * which gives the same CIDs as ipfs-unixfs-importer 17 configured the same way. The other values exist
 * for known-answer vectors made with Kubo's defaults.
 */
export interface UnixfsLayoutOptions {
  cidVersion?: 0 | 1;
  rawLeaves?: boolean;
  /** UnixFS type of non-raw leaves (ipfs-unixfs-importer's `leafType`). */
  leafType?: 'file' | 'raw';
  chunkSize?: number;
  maxChildrenPerNode?: number;
  reduceSingleLeafToSelf?: boolean;
  /** Multihash function code: 0x12 sha2-256 (default) or 0x13 sha2-512. */
  hashCode?: number;
}

export type ResolvedLayout = Required<UnixfsLayoutOptions>;

export const CONTRACT_LAYOUT: ResolvedLayout = {
  cidVersion: 1,
  rawLeaves: true,
  leafType: 'file',
  chunkSize: 1_048_576,
  maxChildrenPerNode: 1024,
  reduceSingleLeafToSelf: true,
  hashCode: 0x12,
};

const HASH_CODES = new Set([0x12, 0x13]);

export function resolveLayout(options: UnixfsLayoutOptions = {}): ResolvedLayout {
  const layout: ResolvedLayout = { ...CONTRACT_LAYOUT };
  for (const key of Object.keys(CONTRACT_LAYOUT) as Array<keyof ResolvedLayout>) {
    const value = options[key];
    if (value !== undefined) (layout as unknown as Record<string, unknown>)[key] = value;
  }
  if (!Number.isSafeInteger(layout.chunkSize) || layout.chunkSize < 1 || layout.chunkSize > 8 * 1024 * 1024) {
    throw new BadInputError('chunkSize: must be an integer from 1 to 8388608');
  }
  if (!Number.isSafeInteger(layout.maxChildrenPerNode) || layout.maxChildrenPerNode < 2) {
    throw new BadInputError('maxChildrenPerNode: must be an integer of at least 2');
  }
  if (!HASH_CODES.has(layout.hashCode)) throw new BadInputError('hashCode: only sha2-256 and sha2-512 are supported');
  if (layout.cidVersion === 0 && layout.hashCode !== 0x12) throw new BadInputError('cidVersion: CIDv0 needs sha2-256');
  return layout;
}
