import * as dagPb from '@ipld/dag-pb';
import { UnixFS } from 'ipfs-unixfs';
import { CID } from 'multiformats/cid';
import * as raw from 'multiformats/codecs/raw';
import { sha256 } from 'multiformats/hashes/sha2';
import { describe, expect, it } from 'vitest';
import { describeBlock } from '../../../../main/content/read/inspect-node.js';
import { singleBlockContent } from '../../../../main/http/gateway/file.js';

async function pbNode(unixfs: UnixFS, links: dagPb.PBLink[] = []): Promise<{ cid: CID; block: Uint8Array }> {
  const block = dagPb.encode(dagPb.prepare({ Data: unixfs.marshal(), Links: links }));
  return { cid: CID.createV1(dagPb.code, await sha256.digest(block)), block };
}

/** The gateway serves a file held in one block from the block inspection already read; the rest reads the DAG. */
describe('singleBlockContent', () => {
  it('is the block of a raw CID', async () => {
    const block = new TextEncoder().encode('raw leaf bytes');
    const cid = CID.createV1(raw.code, await sha256.digest(block));
    expect(singleBlockContent(describeBlock(cid, block))).toBe(block);
  });

  it('is the data of a UnixFS file node without links, empty included', async () => {
    const data = new TextEncoder().encode('inline file');
    const node = await pbNode(new UnixFS({ type: 'file', data }));
    expect(Buffer.from(singleBlockContent(describeBlock(node.cid, node.block)) ?? [])).toEqual(Buffer.from(data));
    const empty = await pbNode(new UnixFS({ type: 'file' }));
    expect(singleBlockContent(describeBlock(empty.cid, empty.block))?.byteLength).toBe(0);
  });

  it('is undefined for a file with links, a directory, and a node whose declared size is not its data', async () => {
    const leaf = new TextEncoder().encode('part');
    const leafCid = CID.createV1(raw.code, await sha256.digest(leaf));
    const chunked = new UnixFS({ type: 'file' });
    chunked.addBlockSize(BigInt(leaf.byteLength));
    const withLinks = await pbNode(chunked, [{ Hash: leafCid, Tsize: leaf.byteLength }]);
    expect(singleBlockContent(describeBlock(withLinks.cid, withLinks.block))).toBeUndefined();
    const directory = await pbNode(new UnixFS({ type: 'directory' }));
    expect(singleBlockContent(describeBlock(directory.cid, directory.block))).toBeUndefined();
    // Claims 4 more bytes than it holds, and has no links to hold them.
    const lying = new UnixFS({ type: 'file', data: leaf });
    lying.addBlockSize(4n);
    const liar = await pbNode(lying);
    expect(singleBlockContent(describeBlock(liar.cid, liar.block))).toBeUndefined();
  });
});
