import { CID } from 'multiformats/cid';
import { describe, expect, it } from 'vitest';
import { multihashKey } from '../../../main/base/multihash-key.js';

const V0 = CID.parse('QmUNLLsPACCz1vLxQVkXqqLX5R1X345qqfHbsf67hvA3Nn');

describe('multihashKey', () => {
  it('is the same for every CID of one multihash, whatever the version or codec', () => {
    const v1Raw = CID.createV1(0x55, V0.multihash);
    expect(multihashKey(v1Raw.multihash.bytes)).toBe(multihashKey(V0.multihash.bytes));
    expect(multihashKey(V0.toV1().multihash.bytes)).toBe(multihashKey(V0.multihash.bytes));
  });

  it('keeps one char a byte, so different multihashes never share a key', () => {
    const bytes = V0.multihash.bytes;
    const key = multihashKey(bytes);
    expect(key).toHaveLength(bytes.byteLength);
    const other = Uint8Array.from(bytes);
    other[other.length - 1] = (other[other.length - 1] as number) ^ 0xff;
    expect(multihashKey(other)).not.toBe(key);
  });

  it('reads only the view it is given, not the rest of its buffer', () => {
    const whole = new Uint8Array(64).fill(7);
    whole.set(V0.multihash.bytes, 10);
    const view = whole.subarray(10, 10 + V0.multihash.bytes.byteLength);
    expect(multihashKey(view)).toBe(multihashKey(V0.multihash.bytes));
  });
});
