import { describe, expect, it } from 'vitest';
import { BadInputError } from '../../../../main/base/errors.js';
import { diffTrees } from '../../../../main/content/directory/diff-trees.js';
import { content, CountingBlockstore, importerDirectory } from './directory-helpers.js';

type Tree = Record<string, string | null>;

/** A tree from `{path: text}` (null: an empty directory), imported with the reference importer. */
async function tree(store: CountingBlockstore, files: Tree, shardSplitThresholdBytes?: number) {
  const list = Object.entries(files).map(([path, text]) => (text === null ? { path } : { path, content: new TextEncoder().encode(text) }));
  const { root } = await importerDirectory(store, list, shardSplitThresholdBytes === undefined ? {} : { shardSplitThresholdBytes });
  return root;
}

/** `count` files f0000…, in one directory `big/` (a HAMT when the threshold is small). */
function manyFiles(count: number, changed: Record<number, string> = {}): Tree {
  const files: Tree = {};
  for (let i = 0; i < count; i++) files[`big/f${String(i).padStart(4, '0')}`] = changed[i] ?? `file ${i}`;
  return files;
}

describe('diffTrees', () => {
  it('lists added, modified and removed files of plain directories, nested ones by their full path', async () => {
    const store = new CountingBlockstore();
    const from = await tree(store, { 'a.txt': 'a', 'b.txt': 'b', 'docs/x.md': 'x', 'docs/old/y.md': 'y', 'keep/z': 'z' });
    const to = await tree(store, { 'a.txt': 'a changed', 'c.txt': 'c', 'docs/x.md': 'x', 'docs/new/w.md': 'w', 'keep/z': 'z' });
    expect(await diffTrees({ blockstore: store }, from, to)).toEqual({
      added: ['c.txt', 'docs/new/w.md'],
      modified: ['a.txt'],
      removed: ['b.txt', 'docs/old/y.md'],
    });
  });

  it('is empty between a tree and itself, and mirrors when turned around', async () => {
    const store = new CountingBlockstore();
    const from = await tree(store, { 'a.txt': 'a', 'd/b': 'b' });
    const to = await tree(store, { 'a.txt': 'A', 'e/c': 'c' });
    expect(await diffTrees({ blockstore: store }, from, from)).toEqual({ added: [], modified: [], removed: [] });
    const forward = await diffTrees({ blockstore: store }, from, to);
    const backward = await diffTrees({ blockstore: store }, to, from);
    expect(backward).toEqual({ added: forward.removed, modified: forward.modified, removed: forward.added });
  });

  it('a directory replaced by a file: what it held removed, the file added; and the reverse', async () => {
    const store = new CountingBlockstore();
    const withDirectory = await tree(store, { 'p/one': '1', 'p/two': '2', 'q.txt': 'q' });
    const withFile = await tree(store, { p: 'now a file', 'q.txt': 'q' });
    expect(await diffTrees({ blockstore: store }, withDirectory, withFile)).toEqual({ added: ['p'], modified: [], removed: ['p/one', 'p/two'] });
    expect(await diffTrees({ blockstore: store }, withFile, withDirectory)).toEqual({ added: ['p/one', 'p/two'], modified: [], removed: ['p'] });
  });

  it('an empty directory is listed as "path/" when it comes or goes', async () => {
    const store = new CountingBlockstore();
    const from = await tree(store, { 'a.txt': 'a' });
    const to = await tree(store, { 'a.txt': 'a', empty: null, 'outer/inner': null });
    expect(await diffTrees({ blockstore: store }, from, to)).toEqual({ added: ['empty/', 'outer/inner/'], modified: [], removed: [] });
  });

  it('in a HAMT directory reads only the shards on the path of a change, whatever its size', async () => {
    const store = new CountingBlockstore();
    // A tiny threshold shards `big/` (3,000 entries: several levels of shards).
    const from = await tree(store, manyFiles(3000), 1000);
    const to = await tree(store, manyFiles(3000, { 1234: 'changed' }), 1000);
    store.resetCounts();
    expect(await diffTrees({ blockstore: store }, from, to)).toEqual({ added: [], modified: ['big/f1234'], removed: [] });
    const readsForOneChange = store.gets;
    // Two roots, two `big/` nodes, and the shards down to the entry on both sides (a whole walk reads hundreds).
    expect(readsForOneChange).toBeLessThanOrEqual(6);

    const more = await tree(store, manyFiles(3000, { 1: 'x', 2000: 'y', 2999: 'z' }), 1000);
    store.resetCounts();
    expect(await diffTrees({ blockstore: store }, from, more)).toEqual({ added: [], modified: ['big/f0001', 'big/f2000', 'big/f2999'], removed: [] });
    expect(store.gets).toBeLessThan(3 * readsForOneChange);
  });

  it('HAMT additions and removals, including names that move between a slot and a sub-shard', async () => {
    const store = new CountingBlockstore();
    const base = manyFiles(600);
    const from = await tree(store, base, 1000);
    const grown: Tree = { ...base };
    for (let i = 600; i < 900; i++) grown[`big/f${String(i).padStart(4, '0')}`] = `file ${i}`;
    delete grown['big/f0007'];
    const to = await tree(store, grown, 1000);
    const diff = await diffTrees({ blockstore: store }, from, to);
    expect(diff.removed).toEqual(['big/f0007']);
    expect(diff.modified).toEqual([]);
    expect(diff.added).toEqual(Array.from({ length: 300 }, (_, i) => `big/f${String(600 + i).padStart(4, '0')}`));
  });

  it('a directory that changes layout (plain on one side, HAMT on the other) is compared by name', async () => {
    const store = new CountingBlockstore();
    const plain = await tree(store, manyFiles(40));
    const sharded = await tree(store, manyFiles(41, { 3: 'changed' }), 200);
    expect(await diffTrees({ blockstore: store }, plain, sharded)).toEqual({ added: ['big/f0040'], modified: ['big/f0003'], removed: [] });
  });

  it('refuses a root that is not a directory, naming it', async () => {
    const store = new CountingBlockstore();
    const directory = await tree(store, { 'a.txt': 'a' });
    const { files } = await importerDirectory(store, [{ path: 'f', content: content(1) }]);
    const file = files[0]?.cid;
    if (file === undefined) throw new Error('no file imported');
    await expect(diffTrees({ blockstore: store }, directory, file, 'to')).rejects.toThrow(BadInputError);
    await expect(diffTrees({ blockstore: store }, directory, file, 'to')).rejects.toThrow(/^to: /);
  });
});
