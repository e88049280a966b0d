import * as dagPb from '@ipld/dag-pb';
import { UnixFS } from 'ipfs-unixfs';
import { CID } from 'multiformats/cid';
import { sha256 } from 'multiformats/hashes/sha2';
import { describe, expect, it } from 'vitest';
import { builtinBlocks } from '../../../main/content/builtin-blocks.js';
import { cidProfile } from '../../../main/content/cid-profile.js';
import { EMPTY_DIRECTORY_BYTES, EMPTY_DIRECTORY_CID } from '../../../main/content/directory/blocks.js';
import { EMPTY_DIR_CID } from '../../../main/sync/reconciler.js';

describe('the empty UnixFS directory, defined once', () => {
  it('is the dag-pb node of an empty UnixFS directory, under its well-known CIDs', async () => {
    expect(EMPTY_DIRECTORY_BYTES).toEqual(dagPb.encode(dagPb.prepare({ Data: new UnixFS({ type: 'directory' }).marshal(), Links: [] })));
    expect(EMPTY_DIRECTORY_CID.equals(CID.createV1(dagPb.code, await sha256.digest(EMPTY_DIRECTORY_BYTES)))).toBe(true);
    expect(EMPTY_DIRECTORY_CID.toString()).toBe('bafybeiczsscdsbs7ffqz55asqdf3smv6klcw3gofszvwlyarci47bgf354');
    expect(EMPTY_DIRECTORY_CID.toV0().toString()).toBe('QmUNLLsPACCz1vLxQVkXqqLX5R1X345qqfHbsf67hvA3Nn');
  });

  it('is the same block for the built-in blocks, the CID profiles and sync', async () => {
    expect(await builtinBlocks()).toEqual([{ cid: EMPTY_DIRECTORY_CID, bytes: EMPTY_DIRECTORY_BYTES }]);
    expect(cidProfile('unixfs-v1-2025').emptyDirectory.equals(EMPTY_DIRECTORY_CID)).toBe(true);
    expect(cidProfile('unixfs-v0-2015').emptyDirectory.equals(EMPTY_DIRECTORY_CID.toV0())).toBe(true);
    expect(EMPTY_DIR_CID).toBe(EMPTY_DIRECTORY_CID.toString());
  });
});
