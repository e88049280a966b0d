import * as dagPb from '@ipld/dag-pb';
import { UnixFS } from 'ipfs-unixfs';
import { CID } from 'multiformats/cid';
import { sha256 } from 'multiformats/hashes/sha2';

/**
 * Blocks that are always available whatever was pinned or collected: the empty UnixFS directory
 * (QmUNLLsPACCz1vLxQVkXqqLX5R1X345qqfHbsf67hvA3Nn and its CIDv1 form), which gw3 clients start DAGs from.
 */
export const EMPTY_DIRECTORY_BYTES: Uint8Array = dagPb.encode(dagPb.prepare({ Data: new UnixFS({ type: 'directory' }).marshal(), Links: [] }));

export async function builtinBlocks(): Promise<{ cid: CID; bytes: Uint8Array }[]> {
  const digest = await sha256.digest(EMPTY_DIRECTORY_BYTES);
  return [{ cid: CID.createV1(dagPb.code, digest), bytes: EMPTY_DIRECTORY_BYTES }];
}
