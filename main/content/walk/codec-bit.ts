/**
 * One bit per codec a multihash may be walked under: the same bytes read as raw, dag-pb, dag-cbor or
 * dag-json link to different blocks, so a walk (walk-dag.ts) and a fetch (network/dag-fetch.ts) mark each
 * multihash seen once per codec, in one small integer.
 */
export function codecBit(code: number): number {
  switch (code) {
    case 0x55:
      return 1;
    case 0x70:
      return 2;
    case 0x71:
      return 4;
    case 0x0129:
      return 8;
    default:
      return 16;
  }
}
