import { describe, it, expect } from 'vitest';
import type { SyncEntry } from '../../../main/store/repositories/sync.js';
import { operationOf, TreeEdit } from '../../../main/sync/tree-edit.js';

const entry = (path: string, kind: SyncEntry['kind'] = 'file', cid = `cid-${path}`): SyncEntry => ({
  pathKey: path.toLowerCase(),
  path,
  kind,
  size: 1,
  mtimeMs: 2,
  ino: 3,
  cid,
});

/** A plan over a stored tree given as entries, keys folded to lower case, counting lookups. */
function editOver(stored: SyncEntry[]): { edit: TreeEdit; lookups: string[] } {
  const byKey = new Map(stored.map((e) => [e.pathKey, e]));
  const lookups: string[] = [];
  const edit = new TreeEdit(
    async (key) => {
      lookups.push(key);
      return byKey.get(key);
    },
    (p) => p.toLowerCase(),
  );
  return { edit, lookups };
}

const ordered = (edit: TreeEdit): Array<[string, boolean, ReturnType<typeof operationOf>]> => edit.rebuildOrder().map((p) => [p.path, p.reset, operationOf(p)]);

describe('TreeEdit', () => {
  it('places a file in a new folder: the folder starts empty and every ancestor is rebuilt, deepest first', async () => {
    const { edit } = editOver([entry('a', 'dir')]);
    await edit.place(entry('a/b/c.txt'));
    expect(ordered(edit)).toEqual([
      ['a/b', true, { add: [{ name: 'c.txt', cid: 'cid-a/b/c.txt' }], remove: [] }],
      ['a', false, { add: [], remove: [] }],
      ['', false, { add: [], remove: [] }],
    ]);
    expect(edit.ops).toEqual([{ op: 'put', ...entry('a/b/c.txt') }]);
  });

  it('replaces a file by a folder of the same name, and sees nothing below a removed folder', async () => {
    const { edit } = editOver([entry('x'), entry('d', 'dir'), entry('d/y')]);
    await edit.ensureDir('x');
    edit.remove(entry('d', 'dir'));
    expect(await edit.existing('d/y')).toBeUndefined();
    expect(await edit.stored('d/y')).toEqual(entry('d/y'));
    expect(edit.ops).toEqual([
      { op: 'delete_tree', pathKey: 'x', path: 'x', kind: 'file' },
      { op: 'delete_tree', pathKey: 'd', path: 'd', kind: 'dir' },
    ]);
    expect(ordered(edit)).toEqual([
      ['x', true, { add: [], remove: [] }],
      ['', false, { add: [], remove: ['x', 'd'] }],
    ]);
  });

  it('removes the old spelling of a respelled file before placing the new one', async () => {
    const { edit } = editOver([entry('Read.me')]);
    await edit.place(entry('read.me'));
    expect(ordered(edit)).toEqual([['', false, { add: [{ name: 'read.me', cid: 'cid-read.me' }], remove: ['Read.me'] }]]);
  });

  it('hands a rebuilt folder to its parent and records it', async () => {
    const { edit } = editOver([entry('d', 'dir')]);
    await edit.place(entry('d/f'));
    const [inner] = edit.rebuildOrder();
    if (!inner) throw new Error('no plan');
    edit.rebuilt(inner, 'new-d');
    expect(edit.ops.at(-1)).toEqual({ op: 'put', pathKey: 'd', path: 'd', kind: 'dir', size: 0, mtimeMs: 0, ino: 0, cid: 'new-d' });
    expect(operationOf(edit.rebuildOrder()[1] ?? inner)).toEqual({ add: [{ name: 'd', cid: 'new-d' }], remove: [] });
  });

  it('asks the store once per key', async () => {
    const { edit, lookups } = editOver([entry('a')]);
    await edit.existing('a');
    await edit.stored('a');
    await edit.place(entry('a'));
    expect(lookups).toEqual(['a']);
  });
});
