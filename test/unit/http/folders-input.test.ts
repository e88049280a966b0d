import { describe, expect, it } from 'vitest';
import { FolderOperationBody, FolderPathParams } from '../../../main/http/input/folders-input.js';
import { requestInput } from '../../../main/http/input/request-input.js';
import { refusalOf, type Refusal } from '../../helpers/request-refusal.js';

const ROOT = 'bafybeiczsscdsbs7ffqz55asqdf3smv6klcw3gofszvwlyarci47bgf354';
const FILE = 'bafkreifjjcie6lypi6ny7amxnfftagclbuxndqonfipmb64f2km2devei4';

describe('folder request schemas', () => {
  it('folder import: the CID of the path', () => {
    expect(requestInput(FolderPathParams, { cid: ROOT }).cid.toString()).toBe(ROOT);
    expect(refusalOf(FolderPathParams, { cid: 'nope' })).toEqual({ msg: 'cid is not a valid CID: nope', param: 'cid' });
    expect(refusalOf(FolderPathParams, {})).toEqual({ msg: 'cid is required (a CID)', param: 'cid' });
  });

  it('a folder operation: reads a full body and defaults the lists to empty and the flags to false', () => {
    const full = requestInput(FolderOperationBody, { cid: ROOT, add: [['a', FILE]], remove: ['b'], pin_new: true, unpin_old: true });
    expect(full.root.toString()).toBe(ROOT);
    expect(full.add.map(([name, cid]) => [name, cid.toString()])).toEqual([['a', FILE]]);
    expect(full).toMatchObject({ remove: ['b'], pinNew: true, unpinOld: true });
    expect(requestInput(FolderOperationBody, { cid: ROOT })).toMatchObject({ add: [], remove: [], pinNew: false, unpinOld: false });
    expect(requestInput(FolderOperationBody, { cid: ROOT, add: null, remove: null, pin_new: null, unpin_old: null })).toMatchObject({
      add: [],
      remove: [],
      pinNew: false,
      unpinOld: false,
    });
    // Names are the domain's to judge (entry-name.ts): any text passes here.
    expect(requestInput(FolderOperationBody, { cid: ROOT, add: [['', FILE]], remove: ['..'] })).toMatchObject({ remove: ['..'] });
  });

  it('a folder operation: refuses each wrong shape naming the field, the first fault in the body’s order', () => {
    const refusals: [Record<string, unknown>, Refusal][] = [
      [{ add: [] }, { msg: 'cid: must be a CID string', param: 'cid' }],
      [{ cid: 5 }, { msg: 'cid: must be a CID string', param: 'cid' }],
      [{ cid: 'nope' }, { msg: 'cid: "nope" is not a valid CID', param: 'cid' }],
      [
        { cid: ROOT, add: 'a' },
        { msg: 'add: must be an array of [name, cid] pairs', param: 'add' },
      ],
      [
        { cid: ROOT, add: [['a']] },
        { msg: 'add[0]: must be a [name, cid] pair of strings', param: 'add' },
      ],
      [
        { cid: ROOT, add: [['a', FILE, 1]] },
        { msg: 'add[0]: must be a [name, cid] pair of strings', param: 'add' },
      ],
      [
        { cid: ROOT, add: [[1, FILE]] },
        { msg: 'add[0]: must be a [name, cid] pair of strings', param: 'add' },
      ],
      [
        { cid: ROOT, add: ['a'] },
        { msg: 'add[0]: must be a [name, cid] pair of strings', param: 'add' },
      ],
      [
        {
          cid: ROOT,
          add: [
            ['a', FILE],
            ['b', 7],
          ],
        },
        { msg: 'add[1] cid: must be a CID string', param: 'add' },
      ],
      [
        {
          cid: ROOT,
          add: [
            ['a', FILE],
            ['b', 'zzz'],
          ],
        },
        { msg: 'add[1] cid: "zzz" is not a valid CID', param: 'add' },
      ],
      [
        { cid: ROOT, remove: 'b' },
        { msg: 'remove: must be an array of strings', param: 'remove' },
      ],
      [
        { cid: ROOT, remove: ['b', 1] },
        { msg: 'remove: must be an array of strings', param: 'remove' },
      ],
      [
        { cid: ROOT, pin_new: 'true' },
        { msg: 'pin_new: must be a boolean', param: 'pin_new' },
      ],
      [
        { cid: ROOT, unpin_old: 1 },
        { msg: 'unpin_old: must be a boolean', param: 'unpin_old' },
      ],
      // Several faults: cid, add (pair by pair), remove, pin_new, unpin_old.
      [
        { cid: 'nope', add: 'a' },
        { msg: 'cid: "nope" is not a valid CID', param: 'cid' },
      ],
      [
        { cid: ROOT, add: [['a', 'zzz'], ['b']], remove: 1 },
        { msg: 'add[0] cid: "zzz" is not a valid CID', param: 'add' },
      ],
      [
        { cid: ROOT, remove: 1, pin_new: 'x', unpin_old: 'x' },
        { msg: 'remove: must be an array of strings', param: 'remove' },
      ],
      [
        { cid: ROOT, pin_new: 'x', unpin_old: 'x' },
        { msg: 'pin_new: must be a boolean', param: 'pin_new' },
      ],
    ];
    for (const [body, refusal] of refusals) expect(refusalOf(FolderOperationBody, body), JSON.stringify(body)).toEqual(refusal);
  });
});
