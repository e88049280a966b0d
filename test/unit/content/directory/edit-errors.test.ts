import { describe, expect, it } from 'vitest';
import * as dagPb from '@ipld/dag-pb';
import { UnixFS } from 'ipfs-unixfs';
import { CID } from 'multiformats/cid';
import * as raw from 'multiformats/codecs/raw';
import { sha256 } from 'multiformats/hashes/sha2';
import { BadInputError, NotFoundError } from '../../../../main/base/errors.js';
import { EMPTY_DIRECTORY_CID, editDirectory, validateEntryName } from '../../../../main/content/directory/index.js';
import { CountingBlockstore } from './directory-helpers.js';
import { putRaw } from '../../../helpers/raw-blocks.js';

async function setup() {
  const blockstore = new CountingBlockstore();
  const a = await putRaw(blockstore, 'a');
  const b = await putRaw(blockstore, 'b');
  const plain = (
    await editDirectory(blockstore, EMPTY_DIRECTORY_CID, {
      add: [
        ['a', a],
        ['b', b],
      ],
    })
  ).cid;
  const hamt = (
    await editDirectory(
      blockstore,
      EMPTY_DIRECTORY_CID,
      {
        add: [
          ['a', a],
          ['b', b],
        ],
      },
      { shardSplitThresholdBytes: 0 },
    )
  ).cid;
  blockstore.resetCounts();
  return { blockstore, a, b, plain, hamt };
}

describe('editDirectory rejects bad input and changes nothing', () => {
  it.each([
    ['empty', ''],
    ['dot', '.'],
    ['dot-dot', '..'],
    ['slash', 'a/b'],
    ['NUL', 'a\0b'],
    ['lone surrogate (not UTF-8)', 'bad\ud800'],
  ])('rejects a %s name in add and in remove with BadInputError', async (_label, name) => {
    const { blockstore, a, plain } = await setup();
    await expect(editDirectory(blockstore, plain, { add: [[name, a]] })).rejects.toBeInstanceOf(BadInputError);
    await expect(editDirectory(blockstore, plain, { remove: [name] })).rejects.toBeInstanceOf(BadInputError);
    expect(blockstore.puts).toBe(0);
  });

  it('accepts UTF-8 names and orders links by their bytes, not UTF-16 units', async () => {
    const { blockstore, a, plain } = await setup();
    validateEntryName('żółw 😀 ﬀ', 'name');
    const result = await editDirectory(blockstore, plain, {
      add: [
        ['\uffff', a],
        ['😀', a],
        ['Z', a],
      ],
    });
    const chunks: Uint8Array[] = [];
    for await (const chunk of blockstore.get(result.cid)) chunks.push(chunk);
    // UTF-16 order would put 😀 (D83D) before \uffff; UTF-8 bytes put EF BF BF before F0 9F 98 80.
    expect(dagPb.decode(Buffer.concat(chunks)).Links.map((link) => link.Name)).toEqual(['Z', 'a', 'b', '\uffff', '😀']);
  });

  it('rejects a name both added and removed, or given twice', async () => {
    const { blockstore, a, plain } = await setup();
    await expect(editDirectory(blockstore, plain, { add: [['a', a]], remove: ['a'] })).rejects.toThrow(/remove\[0\].*"a".*add\[0\]/);
    await expect(
      editDirectory(blockstore, plain, {
        add: [
          ['c', a],
          ['c', a],
        ],
      }),
    ).rejects.toBeInstanceOf(BadInputError);
    await expect(editDirectory(blockstore, plain, { remove: ['a', 'a'] })).rejects.toBeInstanceOf(BadInputError);
    expect(blockstore.puts).toBe(0);
  });

  it('fails with NotFoundError naming a removed entry that does not exist, plain or HAMT', async () => {
    const { blockstore, a, plain, hamt } = await setup();
    for (const root of [plain, hamt]) {
      const attempt = editDirectory(blockstore, root, { add: [['c', a]], remove: ['a', 'missing'] });
      await expect(attempt).rejects.toBeInstanceOf(NotFoundError);
      await expect(editDirectory(blockstore, root, { remove: ['missing'] })).rejects.toThrow(/"missing"/);
    }
    expect(blockstore.puts).toBe(0);
  });

  it('rejects a root that is not a UnixFS directory', async () => {
    const { blockstore, a } = await setup();
    const file = dagPb.encode({ Data: new UnixFS({ type: 'file', data: new Uint8Array([1]) }).marshal(), Links: [] });
    const fileCid = CID.createV1(dagPb.code, await sha256.digest(file));
    await blockstore.put(fileCid, file);
    await expect(editDirectory(blockstore, a, { add: [['x', a]] })).rejects.toBeInstanceOf(BadInputError);
    await expect(editDirectory(blockstore, fileCid, { add: [['x', a]] })).rejects.toThrow(/not a UnixFS directory/);
  });

  it('fails with NotFoundError for a root not held, or an added child whose size must be read', async () => {
    const { blockstore, plain } = await setup();
    const absent = CID.createV1(raw.code, await sha256.digest(new TextEncoder().encode('absent')));
    const absentDir = CID.createV1(dagPb.code, absent.multihash);
    await expect(editDirectory(blockstore, absentDir, { remove: ['a'] })).rejects.toBeInstanceOf(NotFoundError);
    await expect(editDirectory(blockstore, plain, { add: [['x', absent]] })).rejects.toBeInstanceOf(NotFoundError);
    // With its size given, the child block is not needed.
    const ok = await editDirectory(blockstore, plain, { add: [['x', absent, 6]] });
    expect(ok.stats.entries).toBe(3);
  });

  it('an empty change set returns the root unchanged and writes nothing', async () => {
    const { blockstore, plain } = await setup();
    const result = await editDirectory(blockstore, plain, {});
    expect(result.cid.equals(plain)).toBe(true);
    expect(result.stats.entries).toBe(2);
    expect(blockstore.puts).toBe(0);
  });

  it('writes only blocks the store does not hold yet', async () => {
    const { blockstore, a, plain } = await setup();
    const first = await editDirectory(blockstore, plain, { add: [['c', a]] });
    expect(blockstore.puts).toBe(1);
    const second = await editDirectory(blockstore, plain, { add: [['c', a]] });
    expect(second.cid.equals(first.cid)).toBe(true);
    expect(blockstore.puts).toBe(1);
  });
});
