/** Blocks of nothing but nested arrays, `depth` deep: what a decoder that recurses overflows on. */

/** dag-cbor: `depth - 1` one-item arrays around an empty one. */
export const cborArrays = (depth: number): Uint8Array => new Uint8Array([...new Array<number>(depth - 1).fill(0x81), 0x80]);

/** dag-json: `[[…]]`, `depth` deep. */
export const jsonArrays = (depth: number): Uint8Array => new TextEncoder().encode('['.repeat(depth) + ']'.repeat(depth));
