import { describe, expect, it } from 'vitest';
import { DagGetQuery } from '../../../main/http/input/dag-get-input.js';
import { requestInput } from '../../../main/http/input/request-input.js';
import { refusalOf } from '../../helpers/request-refusal.js';

const CID = 'bafkreicysg23kiwv34eg2d7qweipxwosdo2py4ldv42nbauguluen5v6am';

describe('dag/get request schema', () => {
  it('takes one CID in the standard spellings, at most 512 characters', () => {
    expect(requestInput(DagGetQuery, { arg: CID }).arg.toString()).toBe(CID);
    expect(requestInput(DagGetQuery, { arg: 'QmZULkCELmmk5XNfCgTnCyFgAVxBRBXyDHGGMVoLFLiXEN' }).arg.version).toBe(0);
    for (const arg of [undefined, '', [CID, CID]])
      expect(refusalOf(DagGetQuery, { arg }), String(arg)).toEqual({ msg: 'arg is required (a CID)', param: 'arg' });
    expect(refusalOf(DagGetQuery, { arg: 'nope' })).toEqual({ msg: 'arg is not a valid CID: nope', param: 'arg' });
    expect(refusalOf(DagGetQuery, { arg: ` ${CID}` })).toEqual({ msg: `arg is not a valid CID:  ${CID}`, param: 'arg' });
    expect(refusalOf(DagGetQuery, { arg: `b${'a'.repeat(600)}` })).toEqual({ msg: 'arg is not a valid CID', param: 'arg' });
  });
});
