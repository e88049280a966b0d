import * as dagCbor from '@ipld/dag-cbor';
import * as dagJson from '@ipld/dag-json';
import * as dagPb from '@ipld/dag-pb';
import { CID } from 'multiformats/cid';
import * as json from 'multiformats/codecs/json';
import * as raw from 'multiformats/codecs/raw';
import { sha256 } from 'multiformats/hashes/sha2';
import { describe, expect, it } from 'vitest';
import { NotAcceptableError } from '../../../../main/base/errors.js';
import { blockLinks } from '../../../../main/content/read/export-car.js';
import { dagCborView, dagJsonView, decodeBlock } from '../../../../main/content/read/dag-view.js';
import { CBOR_CODE } from '../../../../main/content/read/inspect-node.js';
import { MAX_NESTING, nestsDeeperThan } from '../../../../main/content/read/nesting-depth.js';
import { cborArrays, jsonArrays } from '../../../helpers/nested-arrays.js';

const utf8 = (text: string): Uint8Array => new TextEncoder().encode(text);
/** `depth` CBOR arrays of one item each, around an empty array. */

async function cidOf(code: number, bytes: Uint8Array): Promise<CID> {
  return CID.createV1(code, await sha256.digest(bytes));
}

describe('nestsDeeperThan: nesting found by scanning bytes, never by recursion', () => {
  it('JSON: counts [ and { outside strings, at any depth', () => {
    expect(nestsDeeperThan(json.code, jsonArrays(3), 3)).toBe(false);
    expect(nestsDeeperThan(json.code, jsonArrays(4), 3)).toBe(true);
    expect(nestsDeeperThan(dagJson.code, utf8(`${'{"a":'.repeat(4)}1${'}'.repeat(4)}`), 3)).toBe(true);
    expect(nestsDeeperThan(dagJson.code, jsonArrays(1_000_000), MAX_NESTING)).toBe(true);
    // Brackets in strings, escaped quotes and backslashes are text.
    expect(nestsDeeperThan(json.code, utf8('["[[[[[", "\\"[[[[", "\\\\", [1]]'), 3)).toBe(false);
    expect(nestsDeeperThan(json.code, utf8('["\\\\", [[[1]]]]'), 3)).toBe(true);
    // Siblings do not add up.
    expect(nestsDeeperThan(json.code, utf8('[[1],[2],[3],[4],[5]]'), 2)).toBe(false);
  });

  it('CBOR: arrays, maps and tags nest; strings are skipped whatever bytes they hold; indefinite lengths close on break', () => {
    expect(nestsDeeperThan(dagCbor.code, cborArrays(3), 3)).toBe(false);
    expect(nestsDeeperThan(dagCbor.code, cborArrays(4), 3)).toBe(true);
    expect(nestsDeeperThan(CBOR_CODE, cborArrays(1_000_000), MAX_NESTING)).toBe(true);
    // {"a": {"a": {"a": 1}}} nests 3; a byte string full of 0x81 bytes is no nesting.
    const maps = dagCbor.encode({ a: { a: { a: 1 } } });
    expect(nestsDeeperThan(dagCbor.code, maps, 3)).toBe(false);
    expect(nestsDeeperThan(dagCbor.code, maps, 2)).toBe(true);
    const bytesFull = dagCbor.encode([new Uint8Array(300).fill(0x81), 'x'.repeat(70_000), 1.5, -(2n ** 60n)]);
    expect(nestsDeeperThan(dagCbor.code, bytesFull, 1)).toBe(false);
    // Links are tag 42: one level each.
    const link = CID.parse('bafkqabtimvwgy3yk');
    expect(nestsDeeperThan(dagCbor.code, dagCbor.encode([[link]]), 2)).toBe(true);
    expect(nestsDeeperThan(dagCbor.code, dagCbor.encode([[link]]), 3)).toBe(false);
    // [_ [_ [_ ] ] ] (indefinite arrays), then siblings after the breaks.
    const indefinite = new Uint8Array([0x9f, 0x9f, 0x9f, 0xff, 0xff, 0x01, 0xff]);
    expect(nestsDeeperThan(CBOR_CODE, indefinite, 3)).toBe(false);
    expect(nestsDeeperThan(CBOR_CODE, indefinite, 2)).toBe(true);
    expect(nestsDeeperThan(CBOR_CODE, new Uint8Array([0x82, 0x81, 0x01, 0x81, 0x02]), 2)).toBe(false);
  });

  it('bytes too broken to scan, and codecs without nesting, are left to their decoder', () => {
    expect(nestsDeeperThan(dagCbor.code, new Uint8Array([0x9b, 0xff]), 1)).toBe(false);
    expect(nestsDeeperThan(dagCbor.code, new Uint8Array([0xff]), 1)).toBe(false);
    expect(nestsDeeperThan(raw.code, jsonArrays(10), 1)).toBe(false);
    expect(nestsDeeperThan(dagPb.code, jsonArrays(10), 1)).toBe(false);
  });
});

describe('decoding deep or broken blocks is a 406 naming the block, not a stack overflow (a 500)', () => {
  it.each([
    ['dag-json', dagJson.code, jsonArrays(100_000)],
    ['json', json.code, jsonArrays(100_000)],
    ['dag-cbor', dagCbor.code, cborArrays(100_000)],
    ['cbor', CBOR_CODE, cborArrays(100_000)],
    ['json one level past the limit', json.code, jsonArrays(MAX_NESTING + 1)],
  ])('%s nested too deep', async (_what, code, bytes) => {
    const cid = await cidOf(code, bytes);
    expect(() => decodeBlock(cid, bytes)).toThrow(NotAcceptableError);
    expect(() => decodeBlock(cid, bytes)).toThrow(new RegExp(`${cid.toString()} nests deeper than ${MAX_NESTING} levels`));
    if (code !== dagJson.code) expect(() => dagJsonView(cid, bytes)).toThrow(NotAcceptableError);
    if (code === dagJson.code || code === dagCbor.code) expect(() => blockLinks(cid, bytes)).toThrow(NotAcceptableError);
  });

  it('nesting up to the limit still decodes, converts and gives its links', async () => {
    const bytes = cborArrays(MAX_NESTING);
    const cid = await cidOf(dagCbor.code, bytes);
    expect(new TextDecoder().decode(dagJsonView(cid, bytes))).toBe('['.repeat(MAX_NESTING) + ']'.repeat(MAX_NESTING));
    const jsonBytes = jsonArrays(MAX_NESTING);
    expect(dagCborView(await cidOf(json.code, jsonBytes), jsonBytes)).toEqual(bytes);
    expect(blockLinks(cid, bytes)).toEqual([]);
  });

  it('a block that does not decode under its codec, or cannot be written in the view asked, is 406', async () => {
    const broken = new Uint8Array([0xa1, 0x61]);
    const cid = await cidOf(dagCbor.code, broken);
    expect(() => decodeBlock(cid, broken)).toThrow(/does not decode under its codec/);
    expect(() => blockLinks(cid, broken)).toThrow(NotAcceptableError);
    const float = utf8('{"a":1.5e400}');
    expect(() => dagCborView(CID.createV1(json.code, cid.multihash), float)).toThrow(NotAcceptableError);
  });
});
