import { readFile, readdir } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CarBlockIterator, CarWriter } from '@ipld/car';
import { CID } from 'multiformats/cid';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BadInputError, PayloadTooLargeError } from '../../../../main/base/errors.js';
import { importCar } from '../../../../main/content/car/import-car.js';
import { openBlockstore, type PinfoldBlockstore } from '../../../../main/store/blockstore/blockstore.js';
import { asDagPb, rawBlock } from '../../../helpers/raw-blocks.js';
import { tempDir } from '../../../helpers/temp-dirs.js';
import { brokenDagJson, brokenDagPb, deepCborLinking, deepJsonLinking } from '../../../helpers/unreadable-blocks.js';

const FIXTURES = fileURLToPath(new URL('../../../fixtures/', import.meta.url));

async function carFiles(dir = FIXTURES): Promise<string[]> {
  const found: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) found.push(...(await carFiles(path)));
    else if (entry.name.endsWith('.car')) found.push(path);
  }
  return found.sort();
}

/** Block counts and roots that MANIFEST.md states for each CAR. */
async function manifest(): Promise<Map<string, { blocks: number; roots: string[] }>> {
  const text = await readFile(join(FIXTURES, 'MANIFEST.md'), 'utf8');
  const lines = text.split('\n');
  const stated = new Map<string, { blocks: number; roots: string[] }>();
  for (const [i, line] of lines.entries()) {
    const match = /file: `([^`]+\.car)` — \d+ bytes, sha256 `[0-9a-f]+`, CARv1, (\d+) blocks(?:; root\(s\): ([^;]+))?/.exec(line);
    if (match === null) continue;
    const rootsText = match[3] ?? /^- root\(s\): (.+)$/.exec(lines[i + 1] ?? '')?.[1] ?? '';
    const roots = [...rootsText.matchAll(/`([^`]+)`/g)].map((root) => root[1] as string);
    stated.set(match[1] as string, { blocks: Number(match[2]), roots });
  }
  return stated;
}

async function* pieces(bytes: Uint8Array, size: number): AsyncGenerator<Uint8Array> {
  for (let offset = 0; offset < bytes.byteLength; offset += size) yield bytes.slice(offset, offset + size);
}

async function referenceBlocks(bytes: Uint8Array): Promise<CID[]> {
  const cids: CID[] = [];
  for await (const block of await CarBlockIterator.fromBytes(bytes)) cids.push(block.cid);
  return cids;
}

async function carOf(roots: CID[], blocks: Array<{ cid: CID; bytes: Uint8Array }>): Promise<Uint8Array> {
  const { writer, out } = CarWriter.create(roots);
  const parts: Uint8Array[] = [];
  const collecting = (async () => {
    for await (const part of out) parts.push(part);
  })();
  for (const block of blocks) await writer.put(block);
  await writer.close();
  await collecting;
  return Buffer.concat(parts);
}

/** Wraps a CARv1 as CARv2: pragma, 40-byte header, padding, payload, then a fake index. */
function toCarV2(v1: Uint8Array, padding = 7): Uint8Array {
  const pragma = Buffer.from('0aa16776657273696f6e02', 'hex');
  const header = Buffer.alloc(40);
  const dataOffset = pragma.length + header.length + padding;
  header.writeBigUInt64LE(BigInt(dataOffset), 16);
  header.writeBigUInt64LE(BigInt(v1.byteLength), 24);
  header.writeBigUInt64LE(BigInt(dataOffset + v1.byteLength), 32);
  return Buffer.concat([pragma, header, Buffer.alloc(padding), v1, Buffer.from('not-a-real-index')]);
}

describe('importCar', () => {
  let store: PinfoldBlockstore;
  let cleanup: () => Promise<void>;

  beforeEach(async () => {
    const temp = await tempDir('pinfold-car-');
    cleanup = temp.cleanup;
    store = await openBlockstore(temp.dir);
  });

  afterEach(async () => {
    await store.close();
    await cleanup();
  });

  it('imports every block of every fixture CAR, with the MANIFEST counts and roots', async () => {
    const stated = await manifest();
    const files = await carFiles();
    expect(files.length).toBeGreaterThanOrEqual(22);
    let checkedAgainstManifest = 0;
    for (const file of files) {
      const bytes = await readFile(file);
      const name = relative(FIXTURES, file);
      const result = await importCar(store, pieces(bytes, 4093));
      const blocks = await referenceBlocks(bytes);
      expect(result.blockCount, name).toBe(blocks.length);
      expect(result.blockBytes, name).toBeGreaterThan(0);
      for (const cid of blocks) expect(await store.has(cid), `${name} ${cid.toString()}`).toBe(true);
      for (const root of result.roots) expect(await store.has(root), name).toBe(true);
      const expected = stated.get(name);
      if (expected !== undefined) {
        expect(result.blockCount, name).toBe(expected.blocks);
        expect(result.roots.map(String), name).toEqual(expected.roots);
        checkedAgainstManifest++;
      }
    }
    expect(checkedAgainstManifest).toBe(files.length);
    expect((await store.checkIntegrity({ rehash: true })).problems).toEqual([]);
  });

  it('serves the Kubo fixtures dag-pb blocks stored under raw CIDs', async () => {
    await importCar(store, [await readFile(join(FIXTURES, 'kubo/test/cli/fixtures/TestGatewayHAMTDirectory.car'))]);
    const hamt = CID.parse('bafybeiggvykl7skb2ndlmacg2k5modvudocffxjesexlod2pfvg5yhwrqm');
    expect(await store.has(hamt)).toBe(true);
    expect((await store.getBlock(hamt)).byteLength).toBeGreaterThan(0);
  });

  it('reads CARv2 (skipping padding and the index)', async () => {
    const v1 = await readFile(join(FIXTURES, 'gateway-conformance/tooling/car/_fixtures/dag.car'));
    const result = await importCar(store, pieces(toCarV2(v1), 1000));
    expect(result.blockCount).toBe(5);
    expect(result.roots.map(String)).toEqual(['bafybeidlbwbu73tbjr3atntjz4lq5ego5w2uyof35vvwcnheaftzi3rndu']);
    expect((await store.stats()).blocks).toBe(5);
  });

  it('counts duplicate sections as Kubo does but stores the block once', async () => {
    const block = rawBlock('twice');
    const result = await importCar(store, [await carOf([block.cid], [block, block])]);
    expect(result).toMatchObject({ blockCount: 2, blockBytes: 2 * block.bytes.byteLength });
    expect((await store.stats()).blocks).toBe(1);
  });

  describe('rejects bad CARs whole, leaving nothing visible', () => {
    const cases: Array<[string, () => Promise<Uint8Array>]> = [
      [
        'truncated in a block',
        async () => {
          const bytes = await readFile(join(FIXTURES, 'gateway-conformance/tooling/car/_fixtures/dag.car'));
          return bytes.subarray(0, bytes.byteLength - 100);
        },
      ],
      ['truncated in the header', async () => (await readFile(join(FIXTURES, 'gateway-conformance/tooling/car/_fixtures/dag.car'))).subarray(0, 20)],
      [
        'truncated CARv2 payload',
        async () => {
          const v2 = toCarV2(await readFile(join(FIXTURES, 'gateway-conformance/tooling/car/_fixtures/dag.car')));
          return v2.subarray(0, 2000);
        },
      ],
      [
        'a tampered block',
        async () => {
          const a = rawBlock('first block is fine');
          const b = rawBlock('second block will be tampered');
          const car = Buffer.from(await carOf([a.cid], [a, b]));
          car.writeUInt8((car.at(-1) as number) ^ 0xff, car.byteLength - 1);
          return car;
        },
      ],
      [
        'a root neither in the CAR nor stored',
        async () => {
          const a = rawBlock('present');
          return carOf([rawBlock('absent root').cid], [a]);
        },
      ],
      [
        'a tampered large block (verified on a hash worker)',
        async () => {
          const big = rawBlock(Buffer.alloc(300 * 1024, 7));
          const later = rawBlock('after the big one');
          const car = Buffer.from(await carOf([big.cid], [big, later]));
          const at = car.indexOf(Buffer.alloc(64, 7));
          car.writeUInt8(8, at + 1000);
          return car;
        },
      ],
      ['empty input', async () => new Uint8Array(0)],
      ['a header that is not dag-cbor', async () => Buffer.from([0x04, 0xff, 0xff, 0xff, 0xff])],
      [
        'an unsupported version',
        async () => {
          const car = Buffer.from(
            await carOf(
              [],
              [rawBlock('v').cid].map((cid) => ({ cid, bytes: new TextEncoder().encode('v') })),
            ),
          );
          // header {roots: [], version: 1} ends with the version byte 0x01.
          const headerLength = car[0] as number;
          car[headerLength] = 0x03;
          return car;
        },
      ],
      [
        'a section with a broken CID',
        async () => {
          const header = (await carOf([], [])).subarray();
          return Buffer.concat([header, Buffer.from([0x05, 0x01, 0x99, 0x99, 0x99, 0x99])]);
        },
      ],
      // Blocks GC and the pin census could not follow: their links would be hidden from both.
      ...(
        [
          ['a dag-cbor block nested 100,000 deep (its decoder would overflow)', (leaf: CID) => deepCborLinking(leaf, 100_000)],
          ['a dag-cbor block nested 513 deep', (leaf: CID) => deepCborLinking(leaf, 513)],
          ['a dag-json block nested 100,000 deep', (leaf: CID) => deepJsonLinking(leaf, 100_000)],
          ['a dag-pb block that does not decode', () => brokenDagPb()],
          ['a dag-json block that does not decode', () => brokenDagJson()],
        ] as const
      ).map(([name, block]): [string, () => Promise<Uint8Array>] => [
        name,
        async () => {
          const leaf = rawBlock('a leaf beside it');
          const bad = await block(leaf.cid);
          return carOf([leaf.cid], [leaf, bad, rawBlock('a block after it')]);
        },
      ]),
    ];
    for (const [name, make] of cases) {
      it(name, async () => {
        const before = await store.stats();
        await expect(importCar(store, pieces(await make(), 333))).rejects.toBeInstanceOf(BadInputError);
        expect(await store.stats()).toEqual(before);
        expect(before.blocks).toBe(0);
      });
    }
  });

  it('names the block it cannot read, and takes one nested to the limit', async () => {
    const leaf = rawBlock('linked from the bottom');
    const tooDeep = await deepCborLinking(leaf.cid, 513);
    await expect(importCar(store, [await carOf([tooDeep.cid], [leaf, tooDeep])])).rejects.toThrow(
      `car: block ${tooDeep.cid.toString()} cannot be read under its codec: it nests deeper than 512 levels`,
    );
    const broken = await brokenDagPb();
    await expect(importCar(store, [await carOf([broken.cid], [broken])])).rejects.toThrow(
      new RegExp(`^car: block ${broken.cid.toString()} cannot be read under its codec: .+`),
    );
    expect((await store.stats()).blocks).toBe(0);
    // 511 arrays around the link's tag: 512 levels.
    const deepest = await deepCborLinking(leaf.cid, 511);
    expect((await importCar(store, [await carOf([deepest.cid], [leaf, deepest])])).blockCount).toBe(2);
  });

  it('accepts a root that is already stored (under any codec)', async () => {
    const root = rawBlock('stored earlier');
    await store.put(root.cid, root.bytes);
    const other = rawBlock('new block');
    const result = await importCar(store, [await carOf([asDagPb(root.cid)], [other])]);
    expect(result.blockCount).toBe(1);
    expect(await store.has(other.cid)).toBe(true);
  });

  it('stages into a caller batch without committing it', async () => {
    const block = rawBlock('batched');
    const batch = store.createBatch();
    await importCar(batch, [await carOf([block.cid], [block])]);
    expect(await store.has(block.cid)).toBe(false);
    await batch.commit();
    expect(await store.has(block.cid)).toBe(true);
  });

  it('a failing source keeps its own error, wherever the parser is (a body over its size stays 413)', async () => {
    const block = rawBlock('over the size');
    const car = await carOf([block.cid], [block]);
    const headerEnd = 1 + (car[0] as number);
    for (const cut of [0, headerEnd, headerEnd + 1]) {
      async function* overflowing(): AsyncGenerator<Uint8Array> {
        if (cut > 0) yield car.slice(0, cut);
        throw new PayloadTooLargeError(`body is larger than size=${cut}`);
      }
      await expect(importCar(store, overflowing()), `cut at ${cut}`).rejects.toBeInstanceOf(PayloadTooLargeError);
    }
    expect((await store.stats()).blocks).toBe(0);
  });

  it('runs onCommit once with the result as the blocks become visible; if it throws, none does', async () => {
    const block = rawBlock('committed with its records');
    const car = await carOf([block.cid], [block]);
    await expect(
      importCar(store, [car], {
        onCommit: () => {
          throw new Error('injected: the records could not be written');
        },
      }),
    ).rejects.toThrow('injected');
    expect(await store.has(block.cid)).toBe(false);
    expect((await store.stats()).blocks).toBe(0);
    const seen: string[][] = [];
    const result = await importCar(store, [car], { onCommit: async (_tx, imported) => void seen.push(imported.roots.map(String)) });
    expect(seen).toEqual([[block.cid.toString()]]);
    expect(result.roots.map(String)).toEqual([block.cid.toString()]);
    expect(await store.has(block.cid)).toBe(true);
  });
});
