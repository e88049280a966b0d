import { CID } from 'multiformats/cid';
import { describe, expect, it } from 'vitest';
import { carImportAnswer, editedLocation } from '../../../main/http/upload-answers.js';

const ROOT = CID.parse('bafybeigdyrzt5sfp7udm7hu76uh7y26nf3efuylqabf3oclgtqy55fbzdi');
const OTHER = CID.parse('bafkreigh2akiscaildcqabsyg3dfr6chu3fgpregiymsck7e7aqa4s52zy');

describe('upload answers', () => {
  it('locates an edit under the new root, each segment encoded; a removal at the top is the root itself', () => {
    expect(editedLocation(ROOT, ['a b', 'c?d'])).toBe(`/ipfs/${ROOT.toString()}/a%20b/c%3Fd`);
    expect(editedLocation(ROOT, [])).toBe(`/ipfs/${ROOT.toString()}`);
  });

  it("answers every root with its pin's error, '' when there was none", () => {
    const answer = carImportAnswer([ROOT, OTHER], new Map([[OTHER.toString(), 'census failed']]), 3, 1200);
    expect(answer).toEqual({
      Roots: [
        { Cid: { '/': ROOT.toString() }, PinErrorMsg: '' },
        { Cid: { '/': OTHER.toString() }, PinErrorMsg: 'census failed' },
      ],
      Stats: { BlockCount: 3, BlockBytesCount: 1200 },
    });
  });
});
