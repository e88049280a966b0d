import type { CID } from 'multiformats/cid';
import { EMPTY_DIRECTORY_BYTES, EMPTY_DIRECTORY_CID } from './directory/blocks.js';

/**
 * Blocks that are always available whatever was pinned or collected: the empty UnixFS directory
 * (QmUNLLsPACCz1vLxQVkXqqLX5R1X345qqfHbsf67hvA3Nn and its CIDv1 form), which gw3 clients start DAGs from.
 */
export async function builtinBlocks(): Promise<{ cid: CID; bytes: Uint8Array }[]> {
  return [{ cid: EMPTY_DIRECTORY_CID, bytes: EMPTY_DIRECTORY_BYTES }];
}
