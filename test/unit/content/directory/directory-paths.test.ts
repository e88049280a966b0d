import { describe, expect, it } from 'vitest';
import type { CID } from 'multiformats/cid';
import { BadInputError, NotFoundError } from '../../../../main/base/errors.js';
import { EMPTY_DIRECTORY_CID, lookupEntry, removePath, setPath } from '../../../../main/content/directory/index.js';
import { content, CountingBlockstore, importerDirectory } from './directory-helpers.js';

async function resolve(blockstore: CountingBlockstore, root: CID, path: string[]): Promise<CID | undefined> {
  let current: CID | undefined = root;
  for (const segment of path) {
    if (current === undefined) return undefined;
    current = (await lookupEntry(blockstore, current, segment))?.cid;
  }
  return current;
}

describe('setPath / removePath (PUT and DELETE /ipfs/{cid}/{path})', () => {
  it('creates missing directories and gives the importer root for the same tree', async () => {
    const blockstore = new CountingBlockstore();
    const reference = await importerDirectory(blockstore, [
      { path: 'a/b/c.txt', content: content(1) },
      { path: 'a/d.txt', content: content(2) },
      { path: 'e.txt', content: content(3) },
    ]);
    const cidOf = (name: string) => (reference.files.find((file) => file.name === name) as { cid: CID }).cid;
    let root = EMPTY_DIRECTORY_CID;
    root = (await setPath(blockstore, root, ['e.txt'], cidOf('e.txt'))).cid;
    root = (await setPath(blockstore, root, ['a', 'b', 'c.txt'], cidOf('a/b/c.txt'))).cid;
    root = (await setPath(blockstore, root, ['a', 'd.txt'], cidOf('a/d.txt'))).cid;
    expect(root.toString()).toBe(reference.root.toString());
    expect((await resolve(blockstore, root, ['a', 'b', 'c.txt']))?.toString()).toBe(cidOf('a/b/c.txt').toString());
  });

  it('replaces an existing entry, and removePath keeps the emptied directories', async () => {
    const blockstore = new CountingBlockstore();
    const files = (
      await importerDirectory(blockstore, [
        { path: 'x', content: content(1) },
        { path: 'y', content: content(2) },
      ])
    ).files;
    const [x, y] = files.map((file) => file.cid) as [CID, CID];
    const first = await setPath(blockstore, EMPTY_DIRECTORY_CID, ['docs', 'note.txt'], x);
    const replaced = await setPath(blockstore, first.cid, ['docs', 'note.txt'], y);
    expect((await resolve(blockstore, replaced.cid, ['docs', 'note.txt']))?.toString()).toBe(y.toString());
    expect(replaced.stats.entries).toBe(1);
    const removed = await removePath(blockstore, replaced.cid, ['docs', 'note.txt']);
    const docs = await resolve(blockstore, removed.cid, ['docs']);
    expect(docs?.toString()).toBe('bafybeiczsscdsbs7ffqz55asqdf3smv6klcw3gofszvwlyarci47bgf354');
  });

  it('answers 404 for a missing path, 400 for bad paths and paths through files', async () => {
    const blockstore = new CountingBlockstore();
    const [x] = (await importerDirectory(blockstore, [{ path: 'x', content: content(1) }])).files.map((file) => file.cid) as [CID];
    const root = (await setPath(blockstore, EMPTY_DIRECTORY_CID, ['dir', 'file'], x)).cid;
    blockstore.resetCounts();
    await expect(removePath(blockstore, root, ['dir', 'nope'])).rejects.toThrow(NotFoundError);
    await expect(removePath(blockstore, root, ['nope', 'file'])).rejects.toThrow(/"nope\/file"/);
    await expect(removePath(blockstore, root, ['dir', 'file', 'deeper'])).rejects.toBeInstanceOf(NotFoundError);
    await expect(setPath(blockstore, root, ['dir', 'file', 'deeper'], x)).rejects.toThrow(/"dir\/file" is not a directory/);
    await expect(setPath(blockstore, root, [], x)).rejects.toBeInstanceOf(BadInputError);
    await expect(setPath(blockstore, root, ['dir', '..', 'x'], x)).rejects.toBeInstanceOf(BadInputError);
    await expect(setPath(blockstore, root, ['dir', ''], x)).rejects.toBeInstanceOf(BadInputError);
    await expect(setPath(blockstore, x, ['a'], x)).rejects.toBeInstanceOf(BadInputError);
    expect(blockstore.puts).toBe(0);
  });
});
