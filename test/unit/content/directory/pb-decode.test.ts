import * as dagPb from '@ipld/dag-pb';
import { CID } from 'multiformats/cid';
import { describe, expect, it } from 'vitest';
import { decodePbNode, isCidBytes } from '../../../../main/content/directory/pb-decode.js';

/** The lean decoder must accept exactly what @ipld/dag-pb's decode accepts, and read the same fields. */
describe('decodePbNode', () => {
  const fileCid = CID.parse('bafkreifjjcie6lypi6ny7amxnfftagclbuxndqonfipmb64f2km2devei4');
  const v0 = CID.parse('QmUNLLsPACCz1vLxQVkXqqLX5R1X345qqfHbsf67hvA3Nn');

  function same(bytes: Uint8Array): void {
    let expected: dagPb.PBNode | Error;
    try {
      expected = dagPb.decode(bytes);
    } catch (error) {
      expected = error as Error;
    }
    if (expected instanceof Error) {
      expect(() => decodePbNode(bytes), `dag-pb rejects: ${expected.message}`).toThrow();
      return;
    }
    const node = decodePbNode(bytes);
    expect(node.data === undefined ? undefined : Buffer.from(node.data)).toEqual(expected.Data === undefined ? undefined : Buffer.from(expected.Data));
    expect(
      node.links.map((link) => ({
        Hash: CID.decode(link.hash).toString(),
        Name: link.name === undefined ? undefined : new TextDecoder().decode(link.name),
        Tsize: link.tsize,
      })),
    ).toEqual(expected.Links.map((link) => ({ Hash: link.Hash.toString(), Name: link.Name, Tsize: link.Tsize })));
  }

  it('reads nodes dag-pb encodes: links with and without names and sizes, v0 and v1 CIDs, empty and absent Data', () => {
    const nodes: dagPb.PBNode[] = [
      { Data: Uint8Array.from([8, 1]), Links: [] },
      { Links: [] },
      { Data: new Uint8Array(0), Links: [{ Hash: fileCid }] },
      {
        Data: Uint8Array.from([8, 1]),
        Links: [
          { Hash: v0, Name: '', Tsize: 0 },
          { Hash: fileCid, Name: 'b', Tsize: 2 ** 40 },
        ],
      },
      { Links: Array.from({ length: 300 }, (_, i) => ({ Hash: i % 2 ? v0 : fileCid, Name: `näme-${i}`, Tsize: i * 1000 })) },
    ];
    for (const node of nodes) same(dagPb.encode(dagPb.prepare(node)));
  });

  it('rejects what dag-pb rejects: bad order, duplicates, wrong wire types, unknown fields, truncation, bad CIDs', () => {
    const good = dagPb.encode(dagPb.prepare({ Data: Uint8Array.from([8, 1]), Links: [{ Hash: fileCid, Name: 'a', Tsize: 3 }] }));
    const cases: number[][] = [
      [0x0a, 0x01, 0x08, 0x12, 0x00],
      [0x0a, 0x00, 0x0a, 0x00],
      [0x08, 0x01],
      [0x1a, 0x00],
      [0x12, 0x03, 0x0a, 0x01, 0x00],
      [0x12, 0x02, 0x12, 0x00],
      [0x12, 0x04, 0x18, 0x01, 0x0a, 0x00],
      [0x12, 0x05],
      [...good.subarray(0, good.length - 1)],
      [0x12, 0x24, 0x0a, 0x22, 0x12, 0x20, ...new Array<number>(32).fill(1)],
      [0x12, 0x25, 0x0a, 0x23, 0x12, 0x20, ...new Array<number>(33).fill(1)],
      [0x12, 0x08, 0x0a, 0x06, 0x02, 0x55, 0x12, 0x01, 0x00, 0x00],
      [0x12, 0x07, 0x0a, 0x05, 0x01, 0x55, 0x00, 0x01, 0x07],
      [0x12, 0x0a, 0x0a, 0x08, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x7f],
    ];
    for (const bytes of cases) same(Uint8Array.from(bytes));
    same(good);
    for (let i = 0; i < good.length; i++) {
      const flipped = Uint8Array.from(good);
      flipped[i] = (flipped[i] as number) ^ 0xff;
      same(flipped);
    }
  });

  it('checks CID bytes as CID.decode does', () => {
    for (const cid of [fileCid, v0, CID.createV1(0x70, v0.multihash)]) expect(isCidBytes(cid.bytes)).toBe(true);
    expect(isCidBytes(new Uint8Array(0))).toBe(false);
    expect(isCidBytes(Uint8Array.from([...fileCid.bytes, 0]))).toBe(false);
    expect(isCidBytes(fileCid.bytes.subarray(0, 10))).toBe(false);
  });
});
