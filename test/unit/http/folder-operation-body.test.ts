import { describe, expect, it } from 'vitest';
import { BadInputError } from '../../../main/base/errors.js';
import { parseFolderOperationBody } from '../../../main/http/folder-operation-body.js';

const ROOT = 'bafybeiczsscdsbs7ffqz55asqdf3smv6klcw3gofszvwlyarci47bgf354';
const FILE = 'bafkreifjjcie6lypi6ny7amxnfftagclbuxndqonfipmb64f2km2devei4';

describe('parseFolderOperationBody', () => {
  it('reads a full body and defaults the flags to false', () => {
    const full = parseFolderOperationBody({ cid: ROOT, add: [['a', FILE]], remove: ['b'], pin_new: true, unpin_old: true });
    expect(full.root.toString()).toBe(ROOT);
    expect(full.add.map(([name, cid]) => [name, cid.toString()])).toEqual([['a', FILE]]);
    expect(full).toMatchObject({ remove: ['b'], pinNew: true, unpinOld: true });
    expect(parseFolderOperationBody({ cid: ROOT })).toMatchObject({ add: [], remove: [], pinNew: false, unpinOld: false });
  });

  it.each([
    ['not an object', []],
    ['missing cid', { add: [] }],
    ['bad cid', { cid: 'nope' }],
    ['add not an array', { cid: ROOT, add: 'a' }],
    ['add pair too short', { cid: ROOT, add: [['a']] }],
    ['add bad cid', { cid: ROOT, add: [['a', 'zzz']] }],
    ['remove of numbers', { cid: ROOT, remove: [1] }],
    ['pin_new as string', { cid: ROOT, pin_new: 'true' }],
  ])('rejects %s with BadInputError', (_label, body) => {
    expect(() => parseFolderOperationBody(body)).toThrow(BadInputError);
  });
});
