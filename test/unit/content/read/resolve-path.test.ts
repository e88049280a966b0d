import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { CID } from 'multiformats/cid';
import { BadInputError, NotFoundError } from '../../../../main/base/errors.js';
import { PathInsideNodeError } from '../../../../main/content/read/errors.js';
import { resolvePath } from '../../../../main/content/read/resolve-path.js';
import { GC, fixturePath, storeFromCars } from './fixture-store.js';

const ids = (cids: CID[]): string[] => cids.map((cid) => cid.toString());

describe('resolvePath', () => {
  it('walks UTF-8 names and lists the CID of every segment', async () => {
    const store = await storeFromCars(`${GC}dir_listing/fixtures.car`);
    const root = CID.parse('bafybeig6ka5mlwkl4subqhaiatalkcleo4jgnr3hqwvpmsqfca27cijp3i');
    const resolved = await resolvePath(store, root, ['ą', 'ę', 'file-źł.txt']);
    expect(resolved.cid.toString()).toBe('bafkreialihlqnf5uwo4byh4n3cmwlntwqzxxs2fg5vanqdi3d7tb2l5xkm');
    expect(ids(resolved.roots)).toEqual([
      root.toString(),
      'bafybeidx5mxi45eqpzxsxdbz4v7gnza6f6arwhnrj5aqak2yqxhlspphta',
      'bafybeih24awytf2cmnuycs4nslllfrdzhd6yliyzgd7mxwuxcgv2gm5mda',
      'bafkreialihlqnf5uwo4byh4n3cmwlntwqzxxs2fg5vanqdi3d7tb2l5xkm',
    ]);
    // The final node's own block is not read: resolution needs only the directories.
    expect(resolved.visited).toHaveLength(3);
  });

  it('returns the root itself for an empty path', async () => {
    const store = await storeFromCars(`${GC}dir_listing/fixtures.car`);
    const root = CID.parse('bafybeig6ka5mlwkl4subqhaiatalkcleo4jgnr3hqwvpmsqfca27cijp3i');
    const resolved = await resolvePath(store, root, []);
    expect(resolved.cid.equals(root)).toBe(true);
    expect(resolved.roots).toHaveLength(1);
  });

  it('finds names a literal "%" and "+" inside', async () => {
    const store = await storeFromCars(`${GC}path_gateway_unixfs/dir-with-percent-encoded-filename.car`);
    const root = CID.parse('bafybeig675grnxcmshiuzdaz2xalm6ef4thxxds6o6ypakpghm5kghpc34');
    const resolved = await resolvePath(store, root, ['Portugal%2C+España=Peninsula Ibérica.txt']);
    expect(resolved.cid.toString()).toBe('bafkreihfmctcb2kuvoljqeuphqr2fg2r45vz5cxgq5c2yrxnqg5erbitmq');
  });

  it('traverses HAMT shards, reading only the shards on the way', async () => {
    const store = await storeFromCars(`${GC}trustless_gateway_car/single-layer-hamt-with-multi-block-files.car`);
    const expected = JSON.parse(await readFile(fixturePath('derived/single-layer-hamt-expected.json'), 'utf8')) as {
      hamt_root: string;
      traversals: Record<string, { shard_blocks_after_root: string[]; entry_cid: string }>;
    };
    const root = CID.parse(expected.hamt_root);
    for (const [name, traversal] of Object.entries(expected.traversals)) {
      const resolved = await resolvePath(store, root, [name]);
      expect(resolved.cid.toString()).toBe(traversal.entry_cid);
      expect(ids(resolved.visited)).toEqual([expected.hamt_root, ...traversal.shard_blocks_after_root]);
      // Shards are not path segments.
      expect(ids(resolved.roots)).toEqual([expected.hamt_root, traversal.entry_cid]);
    }
    await expect(resolvePath(store, root, ['i-do-not-exist.txt'])).rejects.toBeInstanceOf(NotFoundError);
  });

  it('traverses the Kubo 10k HAMT whose blocks are stored under raw CIDs', async () => {
    const store = await storeFromCars('kubo/test/cli/fixtures/TestGatewayHAMTDirectory.car');
    const expected = JSON.parse(await readFile(fixturePath('derived/kubo-hamt-10k-expected.json'), 'utf8')) as {
      hamt_dir: string;
      sample_lookups: Record<string, { path: string[]; entry: string }>;
    };
    for (const [name, lookup] of Object.entries(expected.sample_lookups)) {
      const resolved = await resolvePath(store, CID.parse(expected.hamt_dir), [name]);
      expect(resolved.cid.toString()).toBe(lookup.entry);
      expect(ids(resolved.visited)).toEqual([expected.hamt_dir, ...lookup.path]);
    }
  });

  it('follows dag-json and dag-cbor links', async () => {
    const store = await storeFromCars(`${GC}path_gateway_dag/dag-json-traversal.car`, `${GC}path_gateway_dag/dag-cbor-traversal.car`);
    const json = await resolvePath(store, CID.parse('baguqeeram5ujjqrwheyaty3w5gdsmoz6vittchvhk723jjqxk7hakxkd47xq'), ['foo', 'link', 'bar']);
    expect(json.cid.toString()).toBe('baguqeerabz2ohuxlrfgan3sxrgsfeyi5woxikwoiun5i5cesn2zgp3evmy4q');
    const cbor = await resolvePath(store, CID.parse('bafyreibs4utpgbn7uqegmd2goqz4bkyflre2ek2iwv743fhvylwi4zeeim'), ['foo', 'link', 'bar']);
    expect(cbor.cid.toString()).toBe('bafyreiaefvpp22slf5bzd4lqgzwbztqahwlldtqkpgmlhv7mh23pudle7y');
  });

  it('says when a path ends inside an IPLD node and when a key is missing', async () => {
    const store = await storeFromCars(`${GC}path_gateway_dag/dag-json-traversal.car`);
    const root = CID.parse('baguqeeram5ujjqrwheyaty3w5gdsmoz6vittchvhk723jjqxk7hakxkd47xq');
    await expect(resolvePath(store, root, ['foo'])).rejects.toBeInstanceOf(PathInsideNodeError);
    await expect(resolvePath(store, root, ['foo', 'i-do-not-exist'])).rejects.toBeInstanceOf(NotFoundError);
  });

  it('rejects unsafe segments and paths into files, and reports missing blocks', async () => {
    const store = await storeFromCars(`${GC}dir_listing/fixtures.car`);
    const root = CID.parse('bafybeig6ka5mlwkl4subqhaiatalkcleo4jgnr3hqwvpmsqfca27cijp3i');
    for (const bad of [['..'], ['.'], ['a', ''], ['a\0b']]) {
      await expect(resolvePath(store, root, bad)).rejects.toBeInstanceOf(BadInputError);
    }
    await expect(resolvePath(store, root, ['api', 'file.txt', 'more'])).rejects.toBeInstanceOf(NotFoundError);
    await expect(resolvePath(store, root, ['i-do-not-exist'])).rejects.toBeInstanceOf(NotFoundError);
    const absent = CID.parse('QmYzfKSE55XCjD1MW128RfciAf2DViABhEiXfgVFMabSjN');
    await expect(resolvePath(store, absent, ['x'])).rejects.toBeInstanceOf(NotFoundError);
  });
});
