import { CID } from 'multiformats/cid';
import * as raw from 'multiformats/codecs/raw';
import { sha256 } from 'multiformats/hashes/sha2';
import { describe, expect, it } from 'vitest';
import { cidSpellings } from '../../../main/pins/pin-list.js';

describe('pin list query', () => {
  it('a dag-pb sha2-256 CID is found under its v0 and v1 spellings; any other CID under its v1 spelling', async () => {
    const digest = await sha256.digest(new TextEncoder().encode('pin list'));
    const v0 = CID.createV0(digest);
    const v1 = v0.toV1();
    expect(cidSpellings(v0)).toEqual([v0.toString(), v1.toString()]);
    expect(cidSpellings(v1)).toEqual([v0.toString(), v1.toString()]);
    const rawCid = CID.createV1(raw.code, digest);
    expect(cidSpellings(rawCid)).toEqual([rawCid.toString()]);
  });
});
